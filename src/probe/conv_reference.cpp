#include "conv_reference.hpp"

#include <cmath>
#include <cstring>

namespace cuvet::probe {

std::vector<float> probe_values(std::size_t count, std::uint32_t seed) {
    std::vector<float> values(count);
    std::uint32_t state = seed;
    for (float& value : values) {
        state = state * 1664525u + 1013904223u;  // Numerical Recipes LCG: reproducible everywhere
        value = static_cast<float>(static_cast<int>((state >> 16) % 9) - 4) / 4.0f;
    }
    return values;
}

std::vector<double> conv_reference(const ConvShape& shape, const std::vector<float>& input,
                                   const std::vector<float>& filter) {
    const int oh = shape.out_h(), ow = shape.out_w();
    std::vector<double> output(shape.output_count(), 0.0);
    for (int n = 0; n < shape.n; ++n)
        for (int k = 0; k < shape.k; ++k)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x) {
                    double sum = 0;
                    for (int c = 0; c < shape.c; ++c)
                        for (int r = 0; r < shape.r; ++r)
                            for (int s = 0; s < shape.s; ++s) {
                                const int iy = y * shape.stride - shape.pad + r;
                                const int ix = x * shape.stride - shape.pad + s;
                                if (iy < 0 || iy >= shape.h || ix < 0 || ix >= shape.w) continue;
                                sum +=
                                    static_cast<double>(
                                        input[((n * shape.c + c) * shape.h + iy) * shape.w + ix]) *
                                    filter[((k * shape.c + c) * shape.r + r) * shape.s + s];
                            }
                    output[((n * shape.k + k) * oh + y) * ow + x] = sum;
                }
    return output;
}

Comparison compare(const std::vector<double>& reference, const std::vector<float>& actual,
                   Tolerance tolerance) {
    Comparison result;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double got = i < actual.size() ? actual[i] : NAN;
        const double error = std::fabs(got - reference[i]);
        // NaN compares false everywhere: count it explicitly.
        const bool bad = !(error <= tolerance.atol + tolerance.rtol * std::fabs(reference[i]));
        if (bad && result.mismatches++ == 0) result.first_mismatch = i;
        if (!(error <= result.max_abs_error)) result.max_abs_error = error;
    }
    return result;
}

std::uint16_t float_to_half(float value) {
    std::uint32_t x;
    std::memcpy(&x, &value, sizeof x);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    std::uint32_t mantissa = x & 0x7fffffu;
    const int exponent = static_cast<int>((x >> 23) & 0xffu);
    if (exponent == 0xff)
        return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u));
    const int e = exponent - 127 + 15;
    if (e >= 0x1f) return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1);
        const std::uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u) != 0)) ++half;
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t half = sign | (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fffu;
    // A carry out of the mantissa correctly bumps the exponent (up to infinity).
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;
    return static_cast<std::uint16_t>(half);
}

float half_to_float(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const int exponent = (bits >> 10) & 0x1f;
    const std::uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign != 0 ? -magnitude : magnitude;
    }
    std::uint32_t x = sign;
    if (exponent == 0x1f) {
        x |= 0x7f800000u | (mantissa << 13);
    } else {
        x |= (static_cast<std::uint32_t>(exponent - 15 + 127) << 23) | (mantissa << 13);
    }
    float value;
    std::memcpy(&value, &x, sizeof value);
    return value;
}

bool reference_self_check() {
    // One 3x3 input, one 2x2 filter, no padding: the four outputs by hand.
    ConvShape shape;
    shape.n = 1, shape.c = 1, shape.h = 3, shape.w = 3, shape.k = 1, shape.r = 2, shape.s = 2,
    shape.pad = 0;
    const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<float> filter = {1, 0, 0, -1};
    const std::vector<double> expected = {1 - 5, 2 - 6, 4 - 8, 5 - 9};
    if (conv_reference(shape, input, filter) != expected) return false;
    // Half round trips: exact values, rounding to even, overflow, subnormals.
    return half_to_float(float_to_half(-0.75f)) == -0.75f && float_to_half(1.0f) == 0x3c00 &&
           float_to_half(65504.0f) == 0x7bff && float_to_half(70000.0f) == 0x7c00 &&
           float_to_half(1.0f + 1.0f / 4096) == 0x3c00 &&
           half_to_float(0x0001) == std::ldexp(1.0f, -24) &&
           float_to_half(std::ldexp(1.0f, -24)) == 0x0001;
}

}  // namespace cuvet::probe
