"""``tf.experimental``: extension types and API dispatch for them."""
from runtime.extension_type import (ExtensionType, ExtensionTypeSpec,  # noqa: F401
                                    dispatch_for_api, dispatch_for_binary_elementwise_apis,
                                    dispatch_for_unary_elementwise_apis,
                                    unregister_dispatch_for)
from runtime.ragged import DynamicRaggedShape  # noqa: F401,E402
