"""``tf.saved_model``: save and load Modules with their functions and variables."""
from runtime.saved_model.load import load  # noqa: F401
from runtime.saved_model.options import LoadOptions, SaveOptions  # noqa: F401
from runtime.saved_model.save import save  # noqa: F401

SERVING = "serve"  # the tag TensorFlow's tools pass; one graph set is saved here
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
