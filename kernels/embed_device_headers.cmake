# Writes OUTPUT: a C++ file defining fft3d::emit::device_helpers_source() as the concatenated text of HEADERS
# (a ;-list), so the generated kernels are self-contained. Run at build time (cmake -P).
set(text "")
foreach(header IN LISTS HEADERS)
  file(READ ${header} content)
  string(APPEND text "${content}")
endforeach()
file(WRITE ${OUTPUT}.tmp "// Generated from kernels/device/*.cuh by embed_device_headers.cmake.\n"
  "#include \"emit_parts.hpp\"\n"
  "namespace fft3d::emit {\n"
  "const char* device_helpers_source() {\n  return R\"fft3d_device(${text})fft3d_device\";\n}\n"
  "}  // namespace fft3d::emit\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
