"""``tf.saved_model``: save and load Modules with their functions and variables."""
