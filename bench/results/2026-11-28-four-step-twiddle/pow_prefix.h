// Twiddle w^(j*k) from the table's entries at j, 2j, 4j, 8j (k's set bits): at most 4 loads a butterfly.
__device__ __forceinline__ float2 tw_pow(const float2* tab, unsigned mask, unsigned j, int k) {
  float2 r = make_float2(1.f, 0.f); bool first = true;
  #pragma unroll
  for (int bit = 0; bit < 5; ++bit)
    if (k & (1 << bit)) {
      const float2 t = __ldg(&tab[(j << bit) & mask]);
      if (first) { r = t; first = false; }
      else r = make_float2(r.x * t.x - r.y * t.y, r.x * t.y + r.y * t.x);
    }
  return r;
}
