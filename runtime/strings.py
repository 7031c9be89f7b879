"""``tf.strings``: string formatting, splitting, conversion and hashing."""
from runtime.ops.string_ops import (as_string, bytes_split, format, join, length,  # noqa: F401
                                    lower, reduce_join, regex_full_match, regex_replace, split,
                                    strip, substr, to_hash_bucket, to_hash_bucket_fast,
                                    to_hash_bucket_strong, to_number, unicode_decode,
                                    unicode_encode, unicode_split, upper)
from runtime.composite import dispatch_api as _dispatch_api  # noqa: E402
_dispatch_api(globals())  # RaggedTensor / SparseTensor arguments (runtime/composite.py)
