"""``tf.strings``: string formatting, splitting, conversion, Unicode and hashing."""
from runtime.ops.string_ops import (as_string, bytes_split, format, join, length,  # noqa: F401
                                    lower, ngrams, reduce_join, regex_full_match, regex_replace,
                                    split, strip, substr, to_hash_bucket, to_hash_bucket_fast,
                                    to_hash_bucket_strong, to_number, unsorted_segment_join,
                                    upper)
from runtime.ops.unicode_ops import (unicode_decode, unicode_decode_with_offsets,  # noqa: F401
                                     unicode_encode, unicode_script, unicode_split,
                                     unicode_split_with_offsets, unicode_transcode)
from runtime.composite import dispatch_api as _dispatch_api  # noqa: E402
_dispatch_api(globals())  # RaggedTensor / SparseTensor arguments (runtime/composite.py)
