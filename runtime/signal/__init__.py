"""``tf.signal``: Fourier transforms, framing, windows, spectrograms, cosine transforms
and mel-frequency features."""
from runtime.signal.fft import (fft, fft2d, fft3d, fftshift, ifft, ifft2d,  # noqa: F401
                                ifft3d, ifftshift, irfft, irfft2d, irfft3d, rfft, rfft2d,
                                rfft3d)
from runtime.signal.framing import frame, overlap_and_add  # noqa: F401
from runtime.signal.spectral import (dct, idct, inverse_stft,  # noqa: F401
                                     inverse_stft_window_fn, linear_to_mel_weight_matrix,
                                     mfccs_from_log_mel_spectrograms, stft)
from runtime.signal.windows import (hamming_window, hann_window,  # noqa: F401
                                    kaiser_bessel_derived_window, kaiser_window,
                                    vorbis_window)
