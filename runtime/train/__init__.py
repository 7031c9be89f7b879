"""``tf.train``: checkpoints of Modules, variables and optimizers."""
