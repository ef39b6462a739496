#pragma once
// The probe's convolution: shape, inputs and a CPU reference to judge the GPU by.
//
// Inputs are multiples of 1/4 in [-1, 1], so every product is a multiple of
// 1/16 and every output (at most C*R*S = 72 terms) is an integer multiple of
// 1/16 below 72: exactly representable in float, TF32 and half. A correct
// GPU result therefore matches to rounding noise in every precision, and the
// tolerances below only absorb legitimate reordering, not wrong answers.
#include <cstdint>
#include <vector>

namespace cuvet::probe {

struct ConvShape {
    int n = 2, c = 8, h = 12, w = 12;  // input, NCHW
    int k = 8, r = 3, s = 3;           // filter, KCRS
    int pad = 1, stride = 1;
    int out_h() const { return (h + 2 * pad - r) / stride + 1; }
    int out_w() const { return (w + 2 * pad - s) / stride + 1; }
    std::size_t input_count() const { return static_cast<std::size_t>(n) * c * h * w; }
    std::size_t filter_count() const { return static_cast<std::size_t>(k) * c * r * s; }
    std::size_t output_count() const { return static_cast<std::size_t>(n) * k * out_h() * out_w(); }
};

struct Tolerance {
    double atol;
    double rtol;
};
inline constexpr Tolerance float_tolerance{1e-4, 1e-5};
inline constexpr Tolerance half_tolerance{1e-2, 1e-3};

// Deterministic values in {-1, -0.75, …, 1}.
std::vector<float> probe_values(std::size_t count, std::uint32_t seed);

// Cross-correlation (cuDNN's CUDNN_CROSS_CORRELATION) in double precision.
std::vector<double> conv_reference(const ConvShape& shape, const std::vector<float>& input,
                                   const std::vector<float>& filter);

struct Comparison {
    double max_abs_error = 0;
    std::size_t mismatches = 0;  // elements outside atol + rtol * |reference|
    std::size_t first_mismatch = 0;
};
Comparison compare(const std::vector<double>& reference, const std::vector<float>& actual,
                   Tolerance tolerance);

// IEEE binary16 conversions (round to nearest even), so the probe needs no
// CUDA header for __half.
std::uint16_t float_to_half(float value);
float half_to_float(std::uint16_t bits);

// Checks the reference itself on a case worked out by hand; the probe's
// self-test reports it, so a broken build is never blamed on the GPU.
bool reference_self_check();

}  // namespace cuvet::probe
