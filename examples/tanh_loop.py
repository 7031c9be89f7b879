"""The guide's first AutoGraph example: a data-dependent ``while`` loop.

``while tf.reduce_sum(x) > 1`` depends on a tensor, so AutoGraph stages it
as one While node; ``tf.print`` runs on every iteration when the graph runs.
"""
import autograph as tf

tf.random.set_seed(42)  # the guide uses an unseeded tf.random.uniform; seeded for a stable output


@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x


print(repr(f(tf.random.uniform([5]))))
print()
print(tf.autograph.to_code(f.python_function))
