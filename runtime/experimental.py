"""``tf.experimental``: extension types and API dispatch for them."""
from runtime.extension_type import (BatchableExtensionType, BatchableExtensionTypeSpec,  # noqa: F401
                                    ExtensionType, ExtensionTypeSpec,
                                    dispatch_for_api, dispatch_for_binary_elementwise_apis,
                                    dispatch_for_unary_elementwise_apis,
                                    unregister_dispatch_for)
from runtime.ragged import DynamicRaggedShape  # noqa: F401,E402
from runtime.ragged.row_partition import RowPartition  # noqa: F401,E402
from runtime.data.optional import Optional, OptionalSpec  # noqa: F401,E402
from runtime import tf_numpy as numpy  # noqa: F401,E402  (tf.experimental.numpy)
