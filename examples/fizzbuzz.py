"""The guide's fizzbuzz: an ``if``/``elif`` chain inside a loop over ``tf.range``.

Python ``print`` runs while tracing, once per branch (every branch of a
staged ``if`` is traced); ``tf.print`` runs on every iteration.
"""
import autograph as tf


@tf.function
def fizzbuzz(n):
  for i in tf.range(1, n + 1):
    print('Tracing for loop')
    if i % 15 == 0:
      print('Tracing fizzbuzz branch')
      tf.print('fizzbuzz')
    elif i % 3 == 0:
      print('Tracing fizz branch')
      tf.print('fizz')
    elif i % 5 == 0:
      print('Tracing buzz branch')
      tf.print('buzz')
    else:
      print('Tracing default branch')
      tf.print(i)


fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))
