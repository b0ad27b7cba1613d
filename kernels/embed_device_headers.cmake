# Writes OUTPUT: a C++ file defining fft3d::emit::device_helpers_source() as the concatenated text of HEADERS
# (a ;-list) but fft3d_complex64.cuh, and device_helpers64_source() as the same with fft3d_complex64.cuh in place of
# fft3d_complex.cuh (fp64 kernels), so the generated kernels are self-contained. Run at build time (cmake -P).
set(text "")
set(text64 "")
foreach(header IN LISTS HEADERS)
  file(READ ${header} content)
  get_filename_component(name ${header} NAME)
  if(NOT name STREQUAL "fft3d_complex64.cuh")
    string(APPEND text "${content}")
  endif()
  if(NOT name STREQUAL "fft3d_complex.cuh")
    string(APPEND text64 "${content}")
  endif()
endforeach()
file(WRITE ${OUTPUT}.tmp "// Generated from kernels/device/*.cuh by embed_device_headers.cmake.\n"
  "#include \"emit_parts.hpp\"\n"
  "namespace fft3d::emit {\n"
  "const char* device_helpers_source() {\n  return R\"fft3d_device(${text})fft3d_device\";\n}\n"
  "const char* device_helpers64_source() {\n  return R\"fft3d_device(${text64})fft3d_device\";\n}\n"
  "}  // namespace fft3d::emit\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
