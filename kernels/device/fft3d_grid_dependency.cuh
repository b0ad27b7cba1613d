// Programmatic dependent launch (sm_90+). The engine launches each kernel of a transform with programmatic stream
// serialization, so it may start while the kernel before it in the stream is finishing. Every generated kernel
// calls this first, before it touches global memory: it triggers the launch of the next kernel (whose blocks then
// wait here in turn), and waits until the previous kernel has completed and its writes are visible.
__device__ __forceinline__ void fft3d_wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
