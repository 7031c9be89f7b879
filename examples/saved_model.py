"""Save a tf.Module with its functions and variables, load it back, checkpoint it."""
import tempfile

import autograph as tf


class Scaler(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return x * self.scale

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def grow(self, by):
        self.scale.assign_add(by)
        return self.scale


with tempfile.TemporaryDirectory() as export_dir:
    module = Scaler()
    tf.saved_model.save(module, export_dir)
    loaded = tf.saved_model.load(export_dir)  # no source needed: graphs + variables
    print(loaded(tf.constant([1.0, 2.0])))
    print(loaded.grow(tf.constant(1.0)))
    print(loaded(tf.constant([1.0, 2.0])))
    print("signatures:", list(loaded.signatures))  # none asked for, none exported (as TensorFlow)

with tempfile.TemporaryDirectory() as ckpt_dir:
    module = Scaler()
    checkpoint = tf.train.Checkpoint(model=module)
    path = checkpoint.save(f"{ckpt_dir}/ckpt")
    module.scale.assign(10.0)
    checkpoint.restore(path)
    print("restored scale:", module.scale.numpy())
