"""``tf.debugging``: run-time assertions that also work inside graphs."""
from runtime.ops.logging_ops import (Assert, assert_equal, assert_greater,  # noqa: F401
                                     assert_greater_equal, assert_less, assert_less_equal,
                                     assert_negative, assert_non_negative, assert_non_positive,
                                     assert_none_equal, assert_positive)
