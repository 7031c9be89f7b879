"""tf.signal: FFTs, real FFTs, shifts, framing, windows, STFT and its inverse, DCTs, mel
matrices and MFCCs equal to TensorFlow 2.21's (recorded from TensorFlow as literals:
dtype, shape, sum and a sin-weighted sum), eager == tf.function, and gradients equal to
TensorFlow's."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from runtime import signal as S
from tests.runtime.test_image_s4 import _check, fingerprint  # noqa: F401


class _TF:
    """``tf`` with ``tf.signal`` (until autograph exports it at top level)."""

    def __getattr__(self, name):
        return S if name == "signal" else getattr(tf, name)


# -- signal cases --
def signal_cases(tf, np):
    rng = np.random.default_rng(31)
    x = rng.uniform(-1, 1, size=(2, 50)).astype(np.float32)
    z = (rng.normal(size=(2, 6)) + 1j * rng.normal(size=(2, 6))).astype(np.complex64)
    z2 = (rng.normal(size=(2, 4, 6)) + 1j * rng.normal(size=(2, 4, 6))).astype(np.complex128)
    img = rng.uniform(size=(2, 5, 6)).astype(np.float64)
    spec = (rng.normal(size=(3, 5)) + 1j * rng.normal(size=(3, 5))).astype(np.complex64)
    S = tf.signal
    c = tf.constant
    real = tf.math.real
    imag = tf.math.imag

    def parts(t):
        return tf.stack([real(t), imag(t)])
    return {
        "fft": lambda: parts(S.fft(c(z))),
        "ifft": lambda: parts(S.ifft(c(z))),
        "fft2d": lambda: parts(S.fft2d(c(z2))),
        "ifft2d": lambda: parts(S.ifft2d(c(z2))),
        "fft3d": lambda: parts(S.fft3d(c(z2))),
        "rfft": lambda: parts(S.rfft(c(x))),
        "rfft_len": lambda: parts(S.rfft(c(x), [16])),
        "rfft_pad": lambda: parts(S.rfft(c(x[:, :7]), [12])),
        "irfft": lambda: S.irfft(c(spec)),
        "irfft_odd": lambda: S.irfft(c(spec), [9]),
        "rfft2d": lambda: parts(S.rfft2d(c(img))),
        "irfft2d": lambda: S.irfft2d(c(z2), [4, 7]),
        "fftshift": lambda: S.fftshift(c(img), axes=[1, 2]),
        "ifftshift": lambda: S.ifftshift(c(img)),
        "frame": lambda: S.frame(c(x), 8, 5),
        "frame_pad": lambda: S.frame(c(x), 8, 6, pad_end=True, pad_value=2.0),
        "frame_axis0": lambda: S.frame(c(img), 2, 1, axis=1),
        "overlap_add": lambda: S.overlap_and_add(c(img), 3),
        "hann": lambda: S.hann_window(9),
        "hann_even": lambda: S.hann_window(8),
        "hann_symmetric": lambda: S.hann_window(8, periodic=False),
        "hamming": lambda: S.hamming_window(10, dtype=tf.float64),
        "stft": lambda: parts(S.stft(c(x), 16, 4)),
        "stft_pad": lambda: parts(S.stft(c(x), 12, 5, fft_length=20, pad_end=True,
                                         window_fn=S.hamming_window)),
        "inverse_stft": lambda: S.inverse_stft(S.stft(c(x), 16, 4), 16, 4),
        "inverse_stft_window": lambda: S.inverse_stft(
            S.stft(c(x), 16, 4), 16, 4, window_fn=S.inverse_stft_window_fn(4)),
        "dct1": lambda: S.dct(c(img), type=1),
        "dct2": lambda: S.dct(c(x)),
        "dct2_ortho": lambda: S.dct(c(x), norm="ortho"),
        "dct3": lambda: S.dct(c(img), type=3),
        "dct3_ortho": lambda: S.dct(c(img), type=3, norm="ortho"),
        "dct4": lambda: S.dct(c(x), type=4, n=20),
        "idct2": lambda: S.idct(c(x), norm="ortho"),
        "mel": lambda: S.linear_to_mel_weight_matrix(8, 33, 16000, 100.0, 7000.0),
        "mel_default": lambda: S.linear_to_mel_weight_matrix(),
        "mfcc": lambda: S.mfccs_from_log_mel_spectrograms(c(img)),
    }


def signal_gradient_cases(tf, np):
    rng = np.random.default_rng(32)
    x = rng.uniform(-1, 1, size=(2, 12)).astype(np.float64)
    S = tf.signal

    def parts(t):
        return tf.concat([tf.math.real(t), tf.math.imag(t)], -1)
    return x, {
        "fft": lambda v: parts(S.fft(tf.complex(v, v * 0.5))),
        "ifft": lambda v: parts(S.ifft(tf.complex(v, -v))),
        "fft2d": lambda v: parts(S.fft2d(tf.complex(tf.reshape(v, [2, 3, 4]), v[:, :1, None]))),
        "rfft": lambda v: parts(S.rfft(v)),
        "irfft": lambda v: S.irfft(tf.complex(v[:, :7], v[:, 5:])),
        "irfft_odd": lambda v: S.irfft(tf.complex(v[:, :6], v[:, 6:]), [11]),
        "rfft2d": lambda v: parts(S.rfft2d(tf.reshape(v, [2, 3, 4]))),
        "stft": lambda v: tf.abs(S.stft(v, 6, 2)),
        "dct2": lambda v: S.dct(v, norm="ortho"),
        "dct3": lambda v: S.dct(v, type=3),
        "frame": lambda v: S.frame(v, 5, 3) * tf.range(5, dtype=tf.float64),
        "overlap_add": lambda v: S.overlap_and_add(tf.reshape(v, [2, 3, 4]), 3),
    }
# -- end signal cases --


# Recorded from TensorFlow 2.21 with the cases above.
SIGNAL = {
    'fft': ('float32', (2, 2, 6), -32.42420792579651, -16.162184656431286),
    'ifft': ('float32', (2, 2, 6), -5.404034806415439, 0.25763737111392165),
    'fft2d': ('float64', (2, 2, 4, 6), 84.23697017519554, -46.99906336233388),
    'ifft2d': ('float64', (2, 2, 4, 6), 3.5098737572998133, -0.4315038186198057),
    'fft3d': ('float64', (2, 2, 4, 6), -8.352674686375323, -43.197792375485406),
    'rfft': ('float32', (2, 2, 26), 40.49119406938553, -17.23921794710241),
    'rfft_len': ('float32', (2, 2, 9), 7.554907441139221, 3.027396203485059),
    'rfft_pad': ('float32', (2, 2, 7), 4.557559281587601, -4.754751499939944),
    'irfft': ('float32', (3, 8), 3.6089454293251038, -1.4702011624097413),
    'irfft_odd': ('float32', (3, 9), 3.6089455615729094, -0.9862201343045219),
    'rfft2d': ('float64', (2, 2, 5, 4), 45.11572037078015, 24.261846823532935),
    'irfft2d': ('float64', (2, 4, 7), 1.3229656169061172, 0.0969841134977686),
    'fftshift': ('float64', (2, 5, 6), 32.82312771345358, 1.7689043332827188),
    'ifftshift': ('float64', (2, 5, 6), 32.82312771345359, 2.8491332697492),
    'frame': ('float32', (2, 9, 8), 7.513199767563492, 0.4695857306645035),
    'frame_pad': ('float32', (2, 9, 8), 28.253308058716357, 3.062691573596153),
    'frame_axis0': ('float64', (2, 4, 2, 6), 53.893819433784486, -3.073278134336669),
    'overlap_add': ('float64', (2, 18), 32.82312771345358, -2.6113347252353623),
    'hann': ('float32', (9,), 3.9999998211860657, -0.9204571375812577),
    'hann_even': ('float32', (8,), 3.9999998211860657, -0.9204571375812577),
    'hann_symmetric': ('float32', (8,), 3.499999850988388, -0.5097215678044271),
    'hamming': ('float64', (10,), 5.400000000000001, -0.3938795436469451),
    'stft': ('float32', (2, 2, 9, 9), 10.199683472514153, -3.7590247175434177),
    'stft_pad': ('float32', (2, 2, 10, 11), 4.076332233846188, -17.71222233396969),
    'inverse_stft': ('float32', (2, 48), 9.167854765459197, -6.029709103704167),
    'inverse_stft_window': ('float32', (2, 48), 6.111903231139877, -4.019806478037978),
    'dct1': ('float64', (2, 5, 6), 61.22489357909464, -31.267892981148684),
    'dct2': ('float32', (2, 50), 49.946999222040176, -14.583942663073652),
    'dct2_ortho': ('float32', (2, 50), 4.70865543326363, -1.3914439981841222),
    'dct3': ('float64', (2, 5, 6), 43.796326684472035, -18.207796398520006),
    'dct3_ortho': ('float64', (2, 5, 6), 17.87977549753257, -5.084800487581227),
    'dct4': ('float32', (2, 20), 17.276034593582153, 5.299589101620054),
    'idct2': ('float32', (2, 50), 2.136462988331914, -0.9375296374930528),
    'mel': ('float32', (33, 8), 23.606571073178202, 0.46710025414091183),
    'mel_default': ('float32', (129, 20), 110.80084038898349, 1.1654002111648432),
    'mfcc': ('float64', (2, 5, 6), 22.22120203093227, -11.062366125261399),
}
GRADIENTS = {
    'fft': ('float64', (2, 12), -20.037050972740786, -10.295037539358376),
    'ifft': ('float64', (2, 12), 0.6227734094369268, 0.939945555032557),
    'fft2d': ('float64', (2, 12), -16.697700828080187, 12.436923690163677),
    'rfft': ('float64', (2, 12), 11.887288268338443, 3.397704601880005),
    'irfft': ('float64', (2, 12), -2.2716621763722458, -1.8476946993649608),
    'irfft_odd': ('float64', (2, 12), -1.0062323186344515, -0.7301958071836774),
    'rfft2d': ('float64', (2, 12), -9.011846961260115, -6.508149779067119),
    'stft': ('float64', (2, 12), -9.964413803857859, -3.2173330662272304),
    'dct2': ('float64', (2, 12), -1.858743111884484, 4.289122049733152),
    'dct3': ('float64', (2, 12), -10.828409850817529, 21.138697268254944),
    'frame': ('float64', (2, 12), 0.48443604486699243, 0.603102412347294),
    'overlap_add': ('float64', (2, 12), 0.07924486371467232, -1.8767224191884466),
}

_CASES = signal_cases(_TF(), np)


@pytest.mark.parametrize("name", sorted(SIGNAL))
def test_values_match_tensorflow(name):
    eager = _CASES[name]()
    _check(eager.numpy(), SIGNAL[name])
    staged = tf.function(_CASES[name])()
    np.testing.assert_allclose(staged.numpy(), eager.numpy(), rtol=1e-5, atol=1e-5)


_X, _GRAD_CASES = signal_gradient_cases(_TF(), np)


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_tensorflow(name):
    v = tf.constant(_X)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = _GRAD_CASES[name](v)
        loss = tf.reduce_sum(y * np.sin(np.arange(np.prod(y.shape))).reshape(y.shape))
    _check(tape.gradient(loss, v).numpy(), GRADIENTS[name])


def test_errors_and_dynamic_lengths():
    with pytest.raises(TypeError, match="complex64 or complex128"):
        S.fft(np.ones(4, np.float32))
    with pytest.raises(ValueError, match="Type-I DCT"):
        S.dct(np.ones(4, np.float32), type=1, norm="ortho")
    with pytest.raises(ValueError, match="Nyquist"):
        S.linear_to_mel_weight_matrix(sample_rate=8000, upper_edge_hertz=5000.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def frames(x):
        return S.frame(x, 4, 2, pad_end=True)
    assert frames(np.arange(7, dtype=np.float32)).numpy().tolist() == [
        [0, 1, 2, 3], [2, 3, 4, 5], [4, 5, 6, 0], [6, 0, 0, 0]]
