"""tf.summary: event files byte for byte TensorFlow's (but wall times), eager and staged.

Expected records, histogram buckets and PNG digests were recorded from TensorFlow 2.21 (with
TensorBoard 2.21's summary ops) writing the same summaries.
"""
import glob
import hashlib
import os
import socket

import numpy as np
import pytest

import autograph as tf
from graph.ops.records import read_records
from graph.ops.image import encode_png
from graph.ops.summary import parse_event


# -- the summaries TensorFlow wrote (its records without the leading wall_time field) -------

def hist_data():
    return (np.sin(np.arange(50) * 1.7) * 3).astype(np.float32)

def image_f32():
    return ((np.arange(2 * 3 * 4 * 3) % 17) / 16.0).reshape(2, 3, 4, 3).astype(np.float32)

def image_u8():
    return (np.arange(1 * 5 * 6 * 1) * 7 % 256).reshape(1, 5, 6, 1).astype(np.uint8)

def audio_data():
    t = np.arange(40)
    return np.stack([np.sin(t * 0.3)[:, None] * 1.2, np.cos(t * 0.2)[:, None] * 0.5]).astype(np.float32)

def write_cases():
    tf.summary.scalar("loss", 0.5, step=1)
    tf.summary.scalar("acc", np.float64(0.25), step=2, description="accuracy")
    tf.summary.scalar("int", 3, step=0)
    tf.summary.histogram("h", hist_data(), step=3)
    tf.summary.histogram("h4", [1.0, 2.0, 2.5, 7.0], step=4, buckets=4)
    tf.summary.histogram("hint", np.array([[1, 5], [2, 9]], np.int32), step=4, buckets=3)
    tf.summary.histogram("same", [2.0, 2.0, 2.0], step=5, buckets=3)
    tf.summary.histogram("empty", np.zeros([0], np.float32), step=5)
    tf.summary.histogram("zero", [1.0, 2.0], step=5, buckets=0)
    tf.summary.text("t", "hello", step=6)
    tf.summary.text("tv", [["a", "bc"], ["d", ""]], step=6)
    tf.summary.image("imgf", image_f32(), step=7)
    tf.summary.image("imgu", image_u8(), step=7, max_outputs=1)
    tf.summary.image("imgf1", image_f32(), step=7, max_outputs=1, description="d")
    tf.summary.audio("aud", audio_data(), 8000, step=8)
    tf.summary.audio("aud1", audio_data()[:, :7], 44100, step=8, max_outputs=1)
    tf.summary.write("gen", tf.constant([1, 2], tf.int64), step=9)
    tf.summary.write("genb", tf.constant([True, False]), step=9)
    tf.summary.write("genh", tf.constant([[1.5]], tf.float16), step=9)
    tf.summary.write("geni", tf.constant(7), step=-3)
    tf.summary.write("genu", tf.constant([1, 2, 3], tf.uint8), step=9)
    tf.summary.write("gens", tf.constant(["x", "yy"]), step=9)
    tf.summary.write("genc", tf.constant([1 + 2j], tf.complex64), step=9)
    tf.summary.write("gend", tf.constant(2.0, tf.float64), step=1 << 40)
    with tf.name_scope("scope"):
        tf.summary.scalar("inner", 1.0, step=10)


TF_RECORDS = [
    b'\x1a\rbrain.Event:2R$\n"tensorflow.core.util.events_writer',
    b'\x10\x01*!\n\x1f\n\x04lossB\n\x08\x01\x12\x00"\x04\x00\x00\x00?J\x0b\n\t\n\x07scalars',
    b'\x10\x02**\n(\n\x03accB\n\x08\x01\x12\x00"\x04\x00\x00\x80>J\x15\n\t\n\x07scalars\x1a'
    b'\x08accuracy',
    b'* \n\x1e\n\x03intB\n\x08\x01\x12\x00"\x04\x00\x00@@J\x0b\n\t\n\x07scalars',
    b'\x10\x03*\xf8\x05\n\xf5\x05\n\x01hB\xdf\x05\x08\x02\x12\x08\x12\x02\x08\x1e\x12\x02'
    b'\x08\x03"\xd0\x05\x00\x00\x00 \x8d\xf4\x07\xc0DDD\x14`[\x06\xc0\x00\x00\x00\x00\x00'
    b'\x00\x14@DDD\x14`[\x06\xc0\x88\x88\x88\x083\xc2\x04\xc0\x00\x00\x00\x00\x00\x00\x08@'
    b'\x88\x88\x88\x083\xc2\x04\xc0\xcd\xcc\xcc\xfc\x05)\x03\xc0\x00\x00\x00\x00\x00\x00\x00'
    b'@\xcd\xcc\xcc\xfc\x05)\x03\xc0\x11\x11\x11\xf1\xd8\x8f\x01\xc0\x00\x00\x00\x00\x00\x00'
    b'\xf0?\x11\x11\x11\xf1\xd8\x8f\x01\xc0\xaa\xaa\xaa\xcaW\xed\xff\xbf\x00\x00\x00\x00\x00'
    b'\x00\x00@\xaa\xaa\xaa\xcaW\xed\xff\xbf333\xb3\xfd\xba\xfc\xbf\x00\x00\x00\x00\x00\x00'
    b'\xf0?333\xb3\xfd\xba\xfc\xbf\xbc\xbb\xbb\x9b\xa3\x88\xf9\xbf\x00\x00\x00\x00\x00\x00'
    b'\x00@\xbc\xbb\xbb\x9b\xa3\x88\xf9\xbfDDD\x84IV\xf6\xbf\x00\x00\x00\x00\x00\x00\x00\x00'
    b'DDD\x84IV\xf6\xbf\xcc\xcc\xccl\xef#\xf3\xbf\x00\x00\x00\x00\x00\x00\x00@\xcc\xcc\xccl'
    b'\xef#\xf3\xbf\xaa\xaa\xaa\xaa*\xe3\xef\xbf\x00\x00\x00\x00\x00\x00\x00\x00\xaa\xaa\xaa'
    b'\xaa*\xe3\xef\xbf\xbc\xbb\xbb{v~\xe9\xbf\x00\x00\x00\x00\x00\x00\x00@\xbc\xbb\xbb{v~'
    b'\xe9\xbf\xcc\xcc\xccL\xc2\x19\xe3\xbf\x00\x00\x00\x00\x00\x00\xf0?\xcc\xcc\xccL\xc2'
    b'\x19\xe3\xbf\xb8\xbb\xbb;\x1cj\xd9\xbf\x00\x00\x00\x00\x00\x00\xf0?\xb8\xbb\xbb;\x1cj'
    b'\xd9\xbf\xc0\xbb\xbb\xbbgA\xc9\xbf\x00\x00\x00\x00\x00\x00\x00@\xc0\xbb\xbb\xbbgA\xc9'
    b'\xbf\x00\x00\x00\x00@Zd?\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00@Zd?\xc0\xbb\xbb'
    b'\xbb9\xe4\xc9?\x00\x00\x00\x00\x00\x00\xf0?\xc0\xbb\xbb\xbb9\xe4\xc9?\xc0\xbb\xbb;\x85'
    b'\xbb\xd9?\x00\x00\x00\x00\x00\x00\xf0?\xc0\xbb\xbb;\x85\xbb\xd9?\xd0\xcc\xcc\xccvB\xe3'
    b'?\x00\x00\x00\x00\x00\x00\xf0?\xd0\xcc\xcc\xccvB\xe3?\xbc\xbb\xbb\xfb*\xa7\xe9?\x00'
    b'\x00\x00\x00\x00\x00\xf0?\xbc\xbb\xbb\xfb*\xa7\xe9?VUU\x95\xef\x05\xf0?\x00\x00\x00'
    b'\x00\x00\x00\xf0?VUU\x95\xef\x05\xf0?\xcc\xcc\xcc\xacI8\xf3?\x00\x00\x00\x00\x00\x00'
    b'\x00@\xcc\xcc\xcc\xacI8\xf3?DDD\xc4\xa3j\xf6?\x00\x00\x00\x00\x00\x00\x00\x00DDD\xc4'
    b'\xa3j\xf6?\xbc\xbb\xbb\xdb\xfd\x9c\xf9?\x00\x00\x00\x00\x00\x00\x00@\xbc\xbb\xbb\xdb'
    b'\xfd\x9c\xf9?433\xf3W\xcf\xfc?\x00\x00\x00\x00\x00\x00\xf0?433\xf3W\xcf\xfc?VUU\x05'
    b'\xd9\x00\x00@\x00\x00\x00\x00\x00\x00\xf0?VUU\x05\xd9\x00\x00@\x12\x11\x11\x11\x06\x9a'
    b'\x01@\x00\x00\x00\x00\x00\x00\xf0?\x12\x11\x11\x11\x06\x9a\x01@\xce\xcc\xcc\x1c33\x03@'
    b'\x00\x00\x00\x00\x00\x00\x08@\xce\xcc\xcc\x1c33\x03@\x88\x88\x88(`\xcc\x04@\x00\x00'
    b'\x00\x00\x00\x00\xf0?\x88\x88\x88(`\xcc\x04@DDD4\x8de\x06@\x00\x00\x00\x00\x00\x00\x00'
    b'@DDD4\x8de\x06@\x00\x00\x00@\xba\xfe\x07@\x00\x00\x00\x00\x00\x00\x1c@J\x0e\n\x0c\n\nh'
    b'istograms',
    b'\x10\x04*\x87\x01\n\x84\x01\n\x02h4Bn\x08\x02\x12\x08\x12\x02\x08\x04\x12\x02\x08\x03"'
    b'`\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\x04@\x00\x00\x00\x00\x00\x00'
    b'\x00@\x00\x00\x00\x00\x00\x00\x04@\x00\x00\x00\x00\x00\x00\x10@\x00\x00\x00\x00\x00'
    b'\x00\xf0?\x00\x00\x00\x00\x00\x00\x10@\x00\x00\x00\x00\x00\x00\x16@\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x16@\x00\x00\x00\x00\x00\x00\x1c@\x00\x00\x00'
    b'\x00\x00\x00\xf0?J\x0e\n\x0c\n\nhistograms',
    b'\x10\x04*p\nn\n\x04hintBV\x08\x02\x12\x08\x12\x02\x08\x03\x12\x02\x08\x03"H\x00\x00'
    b'\x00\x00\x00\x00\xf0?UUUUUU\r@\x00\x00\x00\x00\x00\x00\x00@UUUUUU\r@UUUUUU\x19@\x00'
    b'\x00\x00\x00\x00\x00\xf0?UUUUUU\x19@\x00\x00\x00\x00\x00\x00"@\x00\x00\x00\x00\x00\x00'
    b'\xf0?J\x0e\n\x0c\n\nhistograms',
    b'\x10\x05*p\nn\n\x04sameBV\x08\x02\x12\x08\x12\x02\x08\x03\x12\x02\x08\x03"H\x00\x00'
    b'\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x00@\x00\x00\x00\x00\x00\x00\x08'
    b'@J\x0e\n\x0c\n\nhistograms',
    b'\x10\x05*\xfc\x05\n\xf9\x05\n\x05emptyB\xdf\x05\x08\x02\x12\x08\x12\x02\x08\x1e\x12'
    b'\x02\x08\x03"\xd0\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00J\x0e\n\x0c\n\nhistograms',
    b'\x10\x05*$\n"\n\x04zeroB\n\x08\x02\x12\x06\x12\x00\x12\x02\x08\x03J\x0e\n\x0c\n\nhisto'
    b'grams',
    b'\x10\x06*\x1c\n\x1a\n\x01tB\x0b\x08\x07\x12\x00B\x05helloJ\x08\n\x06\n\x04text',
    b'\x10\x06**\n(\n\x02tvB\x18\x08\x07\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02B\x01aB\x02b'
    b'cB\x01dB\x00J\x08\n\x06\n\x04text',
    b'\x10\x07*\xf0\x01\n\xed\x01\n\x04imgfB\xd8\x01\x08\x07\x12\x04\x12\x02\x08\x04B\x014B'
    b'\x013Bd\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x04\x00\x00\x00\x03\x08\x02\x00'
    b'\x00\x00;\x969\x91\x00\x00\x00+IDAT\x08\x99cd\xe0\x97\xd77\x80\x02\x86\xfd\xe7\xef\xbf'
    b'\xff\xcf\xc0/\xafo\xef\x1f\xcf\xb2a\xc3\x86\x07\x0f\xf6\x1f8``\xa0\xa8\x00\x00\xe7\xab'
    b'\x0e8Sn\n\x8a\x00\x00\x00\x00IEND\xaeB`\x82Bb\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00'
    b'\x00\x00\x04\x00\x00\x00\x03\x08\x02\x00\x00\x00;\x969\x91\x00\x00\x00)IDAT\x08\x99c'
    b'\x94\xd7\xb77\x80\x01\xc6\xfb\xef\xff+*(\xe8\x1b\x18\x18\x18\x180\xf4\xcf_\xbf\xff\xfc'
    b'\xfd\xf7\xff\x19\xf8\xe5\xf5\x01\xd9Z\r"3\x00m\xca\x00\x00\x00\x00IEND\xaeB`\x82J\n\n'
    b'\x08\n\x06images',
    b'\x10\x07*x\nv\n\x04imguBb\x08\x07\x12\x04\x12\x02\x08\x03B\x016B\x015BR\x89PNG\r\n\x1a'
    b'\n\x00\x00\x00\rIHDR\x00\x00\x00\x06\x00\x00\x00\x05\x08\x00\x00\x00\x00C3\xc2:\x00'
    b'\x00\x00\x19IDAT\x08\x99cd`ggggg\xd4bggggg\xc1F\x01\x00\x17}\x01f`\xf4\x15_\x00\x00'
    b'\x00\x00IEND\xaeB`\x82J\n\n\x08\n\x06images',
    b'\x10\x07*\x8f\x01\n\x8c\x01\n\x05imgf1Bt\x08\x07\x12\x04\x12\x02\x08\x03B\x014B\x013Bd'
    b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x04\x00\x00\x00\x03\x08\x02\x00\x00'
    b'\x00;\x969\x91\x00\x00\x00+IDAT\x08\x99cd\xe0\x97\xd77\x80\x02\x86\xfd\xe7\xef\xbf\xff'
    b'\xcf\xc0/\xafo\xef\x1f\xcf\xb2a\xc3\x86\x07\x0f\xf6\x1f8``\xa0\xa8\x00\x00\xe7\xab\x0e'
    b'8Sn\n\x8a\x00\x00\x00\x00IEND\xaeB`\x82J\r\n\x08\n\x06images\x1a\x01d',
    b'\x10\x08*\xa6\x02\n\xa3\x02\n\x03audB\x8c\x02\x08\x07\x12\x08\x12\x02\x08\x02\x12\x02'
    b'\x08\x02B|RIFFt\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>'
    b'\x00\x00\x02\x00\x10\x00dataP\x00\x00\x00\x00\x00d-\xbbVRx\xff\x7f\xff\x7f\xff\x7f\xff'
    b'\x7f\xc0g\xa5A\xad\x15\xc5\xe7\x07\xbc\\\x96\x00\x80\x00\x80\x00\x80\x00\x80N\x89j\xab'
    b'\x15\xd5\x95\x02\xda/\xd9X\xe8y\xff\x7f\xff\x7f\xff\x7f\xff\x7f\xd5eM?\x1e\x139\xe5'
    b'\xb9\xb9\x80\x94\x00\x80\x00\x80\x00\x80\x00\x80\xf6\x8aB\x00B|RIFFt\x00\x00\x00WAVEfm'
    b't \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00\x02\x00\x10\x00dataP\x00'
    b'\x00\x00\x00@\xb9>\xf3:\xd24\x97,\x94"1\x17\xe1\n"\xfev\xf1^\xe5V\xda\xcf\xd0)\xc9\xb3'
    b'\xc3\xa4\xc0\x1c\xc0 \xc2\x9c\xc6a\xcd+\xd6\xa0\xe0U\xec\xd2\xf8\x9a\x05(\x12\xfc\x1d'
    b'\x9f(\xa31\xac8s=\xc7?\x90?\xd1<\xa47@0\xef&\x11\x1c\x15\x10t\x03B\x00J\r\n\x0b\n\x05a'
    b'udio\x12\x02\x10\x0b',
    b'\x10\x08*c\na\n\x04aud1BJ\x08\x07\x12\x08\x12\x02\x08\x01\x12\x02\x08\x02B:RIFF2\x00'
    b'\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00D\xac\x00\x00\x88X\x01\x00\x02\x00\x10'
    b'\x00data\x0e\x00\x00\x00\x00\x00d-\xbbVRx\xff\x7f\xff\x7f\xff\x7fB\x00J\r\n\x0b\n\x05a'
    b'udio\x12\x02\x10\x0b',
    b'\x10\t*#\n!\n\x03genB\x1a\x08\t\x12\x04\x12\x02\x08\x02"\x10\x01\x00\x00\x00\x00\x00'
    b'\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00',
    b'\x10\t*\x16\n\x14\n\x04genbB\x0c\x08\n\x12\x04\x12\x02\x08\x02"\x02\x01\x00',
    b'\x10\t*\x1a\n\x18\n\x04genhB\x10\x08\x13\x12\x08\x12\x02\x08\x01\x12\x02\x08\x01"\x02'
    b'\x00>',
    b'\x10\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01*\x14\n\x12\n\x04geniB\n\x08\x03\x12\x00"'
    b'\x04\x07\x00\x00\x00',
    b'\x10\t*\x17\n\x15\n\x04genuB\r\x08\x04\x12\x04\x12\x02\x08\x03"\x03\x01\x02\x03',
    b'\x10\t*\x19\n\x17\n\x04gensB\x0f\x08\x07\x12\x04\x12\x02\x08\x02B\x01xB\x02yy',
    b'\x10\t*\x1c\n\x1a\n\x04gencB\x12\x08\x08\x12\x04\x12\x02\x08\x01"\x08\x00\x00\x80?\x00'
    b'\x00\x00@',
    b'\x10\x80\x80\x80\x80\x80 *\x18\n\x16\n\x04gendB\x0e\x08\x02\x12\x00"\x08\x00\x00\x00'
    b'\x00\x00\x00\x00@',
    b'\x10\n*(\n&\n\x0bscope/innerB\n\x08\x01\x12\x00"\x04\x00\x00\x80?J\x0b\n\t\n\x07scalar'
    b's',
]


def write_more_cases():  # edge cases: saturation, channels, dtypes, empty, raw protos
    x = (np.arange(2 * 2 * 3 * 1) / 5.0 - 0.5).reshape(2, 2, 3, 1).astype(np.float32)  # out of [0,1]
    tf.summary.image("sat", x, step=1)
    tf.summary.image("ga", np.ones([1, 2, 2, 2], np.float32) * 0.5, step=1)
    tf.summary.image("rgba", np.linspace(0, 1, 2 * 3 * 3 * 4).reshape(2, 3, 3, 4), step=1, max_outputs=5)
    tf.summary.image("i32", np.arange(12, dtype=np.int32).reshape(1, 2, 2, 3) * 100000000, step=1)
    tf.summary.image("none", np.zeros([2, 2, 2, 3], np.float32), step=1, max_outputs=0)
    tf.summary.image("u16", (np.arange(12, dtype=np.uint16) * 5000).reshape(1, 2, 2, 3), step=1)
    tf.summary.audio("a0", np.zeros([2, 3, 1], np.float32), 100, step=2, max_outputs=0)
    tf.summary.audio("a2", np.array([[[0.5, -0.25], [2.0, -3.0], [2 ** -16, -2 ** -16]]], np.float32), 16000, step=2, description="stereo")
    tf.summary.scalar("b", True, step=3)
    tf.summary.scalar("f64", np.float64(1e300), step=3)
    tf.summary.histogram("b", [True, False, True], step=4, buckets=2)
    tf.summary.histogram("nan", [1.0, np.inf], step=4, buckets=2)
    tf.summary.text("bytes", b"\xff\x00", step=5)
    tf.summary.experimental.write_raw_pb(tf.constant([b'\n\x08\n\x01a\x15\x00\x00\x80?', b'\n\x08\n\x01b\x15\x00\x00\x00@']), step=6)


TF_MORE_RECORDS = [
    b'\x1a\rbrain.Event:2R$\n"tensorflow.core.util.events_writer',
    b'\x10\x01*\xbb\x01\n\xb8\x01\n\x03satB\xa4\x01\x08\x07\x12\x04\x12\x02\x08\x04B\x013B'
    b'\x012BI\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x08\x00\x00'
    b'\x00\x00\xb8\x1f9\xc6\x00\x00\x00\x10IDAT\x08\x99c````\x9446\x06\x00\x00\xf0\x00\x81'
    b'\xf6\xf4\xbe\xfc\x00\x00\x00\x00IEND\xaeB`\x82BI\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR'
    b'\x00\x00\x00\x03\x00\x00\x00\x02\x08\x00\x00\x00\x00\xb8\x1f9\xc6\x00\x00\x00\x10IDAT'
    b'\x08\x99c\xd8\xf4\xf4?\xe3\x7f\x06\x06\x00\x12@\x03\x97\xed\r\x11\xba\x00\x00\x00\x00I'
    b'END\xaeB`\x82J\n\n\x08\n\x06images',
    b'\x10\x01*o\nm\n\x02gaB[\x08\x07\x12\x04\x12\x02\x08\x03B\x012B\x012BK\x89PNG\r\n\x1a\n'
    b'\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x04\x00\x00\x00\xd8\xbf\xc5\xaf'
    b'\x00\x00\x00\x12IDAT\x08\x99c\xac\xafg``b```\x00\x00\x08\x8d\x01\x02\x9fH\xb2\xd1\x00'
    b'\x00\x00\x00IEND\xaeB`\x82J\n\n\x08\n\x06images',
    b'\x10\x01*\xee\x01\n\xeb\x01\n\x04rgbaB\xd6\x01\x08\x07\x12\x04\x12\x02\x08\x04B\x013B'
    b'\x013B_\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x03\x08\x06\x00'
    b'\x00\x00V(\xb5\xbf\x00\x00\x00&IDAT\x08\x99cd`f\xe7\xe2\xe3\xe3\xe3\xe7\xe3\xe7\xe3c'
    b'\xd1\xd6\xd6\xd6\x860\xf9\xf9X\xb4\xb5\xb5u L~>\x002\n\x02\xcf\xc6\x08r\xca\x00\x00'
    b'\x00\x00IEND\xaeB`\x82Be\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00'
    b'\x00\x03\x08\x06\x00\x00\x00V(\xb5\xbf\x00\x00\x00,IDAT\x08\x99cll\xed\xe8\xe1\xe3\xe3'
    b'\xe7\xe3\xe7\xe3\xe3g\xd1\xd6\xd6\xd6\x860\xf9\xf8\x19\xae\xdf\xbe\xff\xe8\xd9\xcb\xb7'
    b'\x1f\xbf\xfc\xf8\xfd\x1f\x00\xb8f\x0e\xb9\x82\xea3\x10\x00\x00\x00\x00IEND\xaeB`\x82J'
    b'\n\n\x08\n\x06images',
    b'\x10\x01*t\nr\n\x03i32B_\x08\x07\x12\x04\x12\x02\x08\x03B\x012B\x012BO\x89PNG\r\n\x1a'
    b'\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00\xfd\xd4\x9as'
    b'\x00\x00\x00\x16IDAT\x08\x99cd\xe0\x16WVQaq\xf7\xf0PQQ\x01\x00\n\x85\x01\xd6\x1f\x0e'
    b'\xcdd\x00\x00\x00\x00IEND\xaeB`\x82J\n\n\x08\n\x06images',
    b'\x10\x01*$\n"\n\x04noneB\x0e\x08\x07\x12\x04\x12\x02\x08\x02B\x012B\x012J\n\n\x08\n'
    b'\x06images',
    b'\x10\x01*t\nr\n\x03u16B_\x08\x07\x12\x04\x12\x02\x08\x03B\x012B\x012BO\x89PNG\r\n\x1a'
    b'\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00\xfd\xd4\x9as'
    b'\x00\x00\x00\x16IDAT\x08\x99cd\x10V\xb7\xb2\xb6b,\xed\x98cem\x05\x00\x12\x0f\x034\xdar'
    b'c\xad\x00\x00\x00\x00IEND\xaeB`\x82J\n\n\x08\n\x06images',
    b'\x10\x02*!\n\x1f\n\x02a0B\n\x08\x07\x12\x06\x12\x00\x12\x02\x08\x02J\r\n\x0b\n\x05audi'
    b'o\x12\x02\x10\x0b',
    b'\x10\x02*g\ne\n\x02a2BH\x08\x07\x12\x08\x12\x02\x08\x01\x12\x02\x08\x02B8RIFF0\x00\x00'
    b'\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00\x80>\x00\x00\x00\xfa\x00\x00\x04\x00\x10'
    b'\x00data\x0c\x00\x00\x00\x00@\x00\xe0\xff\x7f\x00\x80\x01\x00\xff\xffB\x00J\x15\n\x0b'
    b'\n\x05audio\x12\x02\x10\x0b\x1a\x06stereo',
    b'\x10\x03*\x1e\n\x1c\n\x01bB\n\x08\x01\x12\x00"\x04\x00\x00\x80?J\x0b\n\t\n\x07scalars',
    b'\x10\x03* \n\x1e\n\x03f64B\n\x08\x01\x12\x00"\x04\x00\x00\x80\x7fJ\x0b\n\t\n\x07scalar'
    b's',
    b'\x10\x04*U\nS\n\x01bB>\x08\x02\x12\x08\x12\x02\x08\x02\x12\x02\x08\x03"0\x00\x00\x00'
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xe0?\x00\x00\x00\x00\x00\x00\xf0?\x00\x00'
    b'\x00\x00\x00\x00\xe0?\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\x00@J\x0e\n'
    b'\x0c\n\nhistograms',
    b'\x10\x04*W\nU\n\x03nanB>\x08\x02\x12\x08\x12\x02\x08\x02\x12\x02\x08\x03"0\x00\x00\x00'
    b'\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00\xf0\x7f\x00\x00\x00\x00\x00\x00\xf0?\x00\x00'
    b'\x00\x00\x00\x00\xf0\x7f\x00\x00\x00\x00\x00\x00\xf0\x7f\x00\x00\x00\x00\x00\x00\x00'
    b'\x00J\x0e\n\x0c\n\nhistograms',
    b'\x10\x05*\x1d\n\x1b\n\x05bytesB\x08\x08\x07\x12\x00B\x02\xff\x00J\x08\n\x06\n\x04text',
    b'\x10\x06*\x14\n\x08\n\x01a\x15\x00\x00\x80?\n\x08\n\x01b\x15\x00\x00\x00@',
]


def _records(logdir):
    (path,) = glob.glob(os.path.join(logdir, "*"))
    with open(path, "rb") as f:
        return list(read_records(f))


def _values(logdir):
    """(step, tag, value as numpy) of each summary written to ``logdir``."""
    out = []
    for record in _records(logdir)[1:]:
        event = parse_event(record)
        (value,) = event["summary"]["value"]
        tensor = value["tensor"]
        dtype = {1: np.float32, 2: np.float64, 9: np.int64}[tensor["dtype"]]
        content = tensor.get("tensor_content", [b""])[0]
        out.append((event["step"], value["tag"][0].decode(),
                    np.frombuffer(content, dtype).reshape(tensor["tensor_shape"]["dim"])))
    return out


@pytest.mark.parametrize("staged", [False, True])
@pytest.mark.parametrize("cases,expected", [(write_cases, TF_RECORDS),
                                            (write_more_cases, TF_MORE_RECORDS)])
def test_records_equal_tensorflows(tmp_path, cases, expected, staged):
    writer = tf.summary.create_file_writer(str(tmp_path))

    def run():
        with writer.as_default():
            cases()

    tf.function(run)() if staged else run()
    writer.close()
    ours = _records(str(tmp_path))
    assert all(r[:1] == b"\x09" for r in ours)  # each event starts with its wall_time
    assert [r[9:] for r in ours] == expected


def test_file_name_and_first_record(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "a" / "b"))
    tf.summary.create_file_writer(str(tmp_path / "c"), filename_suffix="abc")
    tf.summary.create_file_writer(str(tmp_path / "d"), filename_suffix="")
    (path,) = glob.glob(str(tmp_path / "a" / "b" / "*"))  # written when the writer is made
    name = os.path.basename(path).split(".")
    assert name[:3] == ["events", "out", "tfevents"] and len(name[3]) == 10
    assert name[4:] == [*socket.gethostname().split("."), str(os.getpid()), name[-2], "v2"]
    n = int(name[-2])
    assert glob.glob(str(tmp_path / "c" / "*"))[0].endswith(f".{os.getpid()}.{n + 1}.abc")
    assert glob.glob(str(tmp_path / "d" / "*"))[0].endswith(f".{os.getpid()}.{n + 2}.")
    (first,) = _records(str(tmp_path / "a" / "b"))
    event = parse_event(first)
    assert event["wall_time"] == int(name[3]) and event["step"] == 0
    assert event["file_version"] == [b"brain.Event:2"]
    writer.close()


def test_histogram_buckets_as_tensorflow(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        tf.summary.histogram("h", [1.0, 2.0, 2.5, 7.0], buckets=4)
        tf.summary.histogram("same", [2.0, 2.0, 2.0], buckets=3)
        tf.summary.histogram("none", [1.0], buckets=0)
    h, same, none = (v for _, _, v in _values(str(tmp_path)))
    np.testing.assert_array_equal(h, [[1.0, 2.5, 2], [2.5, 4.0, 1], [4.0, 5.5, 0],
                                      [5.5, 7.0, 1]])
    np.testing.assert_array_equal(same, [[2.0, 2.0, 0], [2.0, 2.0, 0], [2.0, 2.0, 3]])
    assert none.shape == (0, 3)
    with pytest.raises(TypeError):  # TensorBoard asserts an int32 bucket count
        with writer.as_default(step=0):
            tf.summary.histogram("x", [1.0], buckets=2.0)


def test_png_bytes_equal_tensorflows():
    rng = np.random.RandomState(0)
    images = {  # large (two IDAT chunks, full window), graded gray, RGBA, 16-bit gray+alpha
        (32624, "0b2797716dba8de2"): rng.randint(0, 256, (120, 90, 3)).astype(np.uint8),
        (225, "f810e48828fdd1e5"): (np.add.outer(np.arange(70), np.arange(300)) % 256
                                    ).astype(np.uint8)[..., None],
        (545, "cebb5a7ce7c09209"): rng.randint(0, 256, (9, 13, 4)).astype(np.uint8),
        (213, "eaed81911277c424"): rng.randint(0, 65536, (5, 7, 2)).astype(np.uint16)}
    for (size, digest), image in images.items():
        png = encode_png(image)
        assert (len(png), hashlib.sha256(png).hexdigest()[:16]) == (size, digest)


def test_no_writer_records_nothing(tmp_path):
    result = tf.summary.scalar("x", 1.0, step=1)
    assert result.dtype == tf.bool and not result.numpy()
    assert not tf.summary.should_record_summaries().numpy()
    assert tf.summary.flush() is None
    noop = tf.summary.create_noop_writer()
    with noop.as_default(step=3):
        assert not tf.summary.scalar("x", 1.0).numpy()
        assert tf.summary.experimental.get_step() is None
    assert not tf.summary.scalar("x", 1.0).numpy()  # no step needed when nothing records


def test_record_if(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=1):
        assert tf.summary.should_record_summaries().numpy()
        with tf.summary.record_if(False):
            assert not tf.summary.scalar("off", 1.0).numpy()
            assert not tf.summary.scalar("no step needed", 1.0, step=None).numpy()
        with tf.summary.record_if(tf.constant(False)):
            assert not tf.summary.should_record_summaries().numpy()
        with tf.summary.record_if(lambda: tf.constant(True)):
            assert tf.summary.scalar("on", 2.0).numpy()
    assert [(s, t) for s, t, _ in _values(str(tmp_path))] == [(1, "on")]


def test_step_errors_as_tensorflow(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match=r"^No step set. Please specify one either "
                                             r"through the `step` argument or through "
                                             r"tf.summary.experimental.set_step\(\)$"):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match="Argument `step` must be a scalar. Received "
                                             r"step with shape \(2,\)."):
            tf.summary.scalar("x", 1.0, step=[1, 2])
        with pytest.raises(ValueError, match="requested dtype int64 for Tensor with dtype "
                                             "int32"):
            tf.summary.scalar("x", 1.0, step=tf.constant(1))
        with pytest.raises(TypeError):
            tf.summary.scalar("x", 1.0, step=1.5)
        with pytest.raises(ValueError, match=r"Expected scalar shape, saw shape: \(2,\)."):
            tf.summary.scalar("x", [1.0, 2.0], step=1)
        with pytest.raises(ValueError, match="must have rank 4"):
            tf.summary.image("x", tf.zeros([2, 2, 3]), step=1)
        with pytest.raises(TypeError):
            tf.summary.text("x", 1.0, step=1)
        tf.summary.experimental.set_step(7)
        try:
            assert tf.summary.scalar("x", 1.0).numpy()
        finally:
            tf.summary.experimental.set_step(None)
    assert [(s, v) for s, _, v in _values(str(tmp_path))] == [(7, 1.0)]


def test_default_step_and_writer_nest(tmp_path):
    a = tf.summary.create_file_writer(str(tmp_path / "a"))
    b = tf.summary.create_file_writer(str(tmp_path / "b"))
    with a.as_default(step=10):
        tf.summary.scalar("v", 1.0)
        with b.as_default(step=20):
            tf.summary.scalar("v", 2.0)
        tf.summary.scalar("v", 3.0)
        with b.as_default():  # no step given: the enclosing one
            tf.summary.scalar("v", 4.0)
    assert tf.summary.experimental.get_step() is None
    assert [(s, v) for s, _, v in _values(str(tmp_path / "a"))] == [(10, 1.0), (10, 3.0)]
    assert [(s, v) for s, _, v in _values(str(tmp_path / "b"))] == [(20, 2.0), (10, 4.0)]


def test_queue_flush_and_close(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=1, flush_millis=10**9)
    (path,) = glob.glob(str(tmp_path / "*"))
    sizes = [os.path.getsize(path)]
    with writer.as_default(step=1):
        for _ in range(3):  # TensorFlow writes when more than max_queue are queued
            tf.summary.scalar("a", 1.0)
            sizes.append(os.path.getsize(path))
    sizes.append(os.path.getsize(path))  # as_default flushes on exit
    assert sizes == [78, 78, 196, 196, 255]  # TensorFlow's sizes
    writer.close()
    writer.close()  # closing again does nothing, as in TensorFlow
    assert writer.flush() is None
    with pytest.raises(RuntimeError, match="is already closed"):
        writer.as_default()
    with pytest.raises(ValueError, match="Argument `logdir` cannot be None"):
        tf.summary.create_file_writer(None)


def test_in_function_with_variable_step(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train_step(x):
        with writer.as_default():
            step.assign_add(1)
            written = tf.summary.scalar("loss", x * 2.0, step=step)
            with tf.summary.record_if(lambda: step % 2 == 0):
                tf.summary.scalar("even", x, step=step)
            if x > 1.5:
                tf.summary.histogram("big", tf.fill([2], x), step=step, buckets=1)
            for _ in tf.range(2):
                tf.summary.scalar("loop", x, step=step)
        return written

    for i in range(4):
        assert train_step(tf.constant(float(i))).numpy()
    got = [(s, t, v.tolist()) for s, t, v in _values(str(tmp_path)) if t != "while/loop"]
    assert got == [(1, "loss", 0.0), (2, "loss", 2.0), (2, "even", 1.0),  # tags as TensorFlow's
                   (3, "loss", 4.0), (3, "cond/big", [[2.0, 2.0, 2.0]]),
                   (4, "loss", 6.0), (4, "even", 3.0), (4, "cond/big", [[3.0, 3.0, 2.0]])]
    loops = [(s, t) for s, t, _ in _values(str(tmp_path)) if t == "while/loop"]
    assert loops == [(s, "while/loop") for s in (1, 1, 2, 2, 3, 3, 4, 4)]


def test_in_function_without_writer_and_default_step(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(5, dtype=tf.int64)

    @tf.function
    def log(x):
        return tf.summary.scalar("x", x)

    assert not log(tf.constant(1.0)).numpy()  # traced with no default writer
    with writer.as_default(step=step):
        @tf.function
        def log2(x):
            result = tf.summary.scalar("x", x)
            step.assign_add(1)
            return result
        assert log2(tf.constant(1.0)).numpy() and log2(tf.constant(2.0)).numpy()
    assert [(s, v) for s, _, v in _values(str(tmp_path))] == [(5, 1.0), (6, 2.0)]


def test_tags_under_name_scopes(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        with tf.name_scope("outer"):
            tf.summary.scalar("eager", 1.0)
            with tf.summary.experimental.summary_scope("in ner", "dflt") as (tag, scope):
                assert (tag, scope) == ("outer/in ner", "outer/inner/")  # as TensorFlow
            with tf.summary.experimental.summary_scope(None, "dflt") as (tag, scope):
                assert (tag, scope) == ("outer/dflt", "outer/dflt/")

        @tf.function
        def staged():
            with tf.name_scope("fn"):
                tf.summary.scalar("staged", 2.0)

        staged()
    assert [t for _, t, _ in _values(str(tmp_path))] == ["outer/eager", "fn/staged"]


def test_trace_export_does_not_pretend(tmp_path):
    with pytest.raises(ValueError, match="Must enable trace before export"):
        tf.summary.trace_export("t", step=0)
    tf.summary.trace_on(graph=True)
    with pytest.raises(NotImplementedError, match="trace_export"):
        tf.summary.trace_export("t", step=0)
    with pytest.raises(ValueError, match="Must enable trace before export"):
        tf.summary.trace_export("t", step=0)  # the failed export stopped the trace
    tf.summary.trace_on()
    tf.summary.trace_off()


def test_eager_and_both_graph_backends_write_the_same(tmp_path):
    from tests.staging import assert_same
    writer = tf.summary.create_file_writer(str(tmp_path))

    def summaries(x):
        with writer.as_default(step=2):
            tf.summary.histogram("h", x, buckets=3)
            tf.summary.image("i", tf.reshape(x, [1, 2, 3, 1]))
            return tf.summary.audio("a", tf.reshape(x, [2, 3, 1]), 8000)

    assert_same(summaries, np.array([0.5, -1.0, 0.25, 0.0, 1.0, 0.75], np.float32))
    records = [r[9:] for r in _records(str(tmp_path))[1:]]
    assert len(records) == 9 and records[:3] == records[3:6] == records[6:]


def test_writer_made_in_function_is_collected_after_the_trace(tmp_path):
    @tf.function
    def make_and_write():
        writer = tf.summary.create_file_writer(str(tmp_path))  # lifted out: made eagerly
        with writer.as_default():
            tf.summary.scalar("x", 1.5, step=3)
        return tf.constant(0)

    with pytest.raises(tf.errors.NotFoundError, match="does not exist"):
        make_and_write()  # the writer was collected after the trace: TensorFlow's NotFoundError
    assert len(_records(str(tmp_path))) == 1  # its file was made (and closed)
    with pytest.raises(ValueError, match="Invalid graph Tensor argument 'logdir="):
        tf.function(lambda d: tf.summary.create_file_writer(d))(tf.constant(str(tmp_path)))
