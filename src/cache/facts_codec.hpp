#pragma once
// LayerFacts to bytes and back (the payload of a cache entry).
#include "byte_codec.hpp"
#include "cuvet/cache/layer_facts.hpp"

namespace cuvet::cache::detail {

void encode_facts(Writer& out, const LayerFacts& facts);
LayerFacts decode_facts(Reader& in);  // throws DecodeError

}  // namespace cuvet::cache::detail
