# Third-party dependencies. With FFT3D_STATIC_DEPS the Debian packages' static archives are linked, so the binary
# runs on a machine that has the CUDA driver but none of these packages.
find_package(PkgConfig QUIET)
find_package(Threads REQUIRED)

function(fft3d_static_or_shared out_var lib_name header)
  if(FFT3D_STATIC_DEPS)
    find_library(${out_var}_LIB NAMES lib${lib_name}.a REQUIRED)
  else()
    find_library(${out_var}_LIB NAMES ${lib_name} REQUIRED)
  endif()
  find_path(${out_var}_INCLUDE ${header} REQUIRED)
  add_library(${out_var} INTERFACE IMPORTED GLOBAL)
  target_link_libraries(${out_var} INTERFACE ${${out_var}_LIB})
  target_include_directories(${out_var} INTERFACE ${${out_var}_INCLUDE})
endfunction()

fft3d_static_or_shared(fft3d_dep_yaml yaml-cpp yaml-cpp/yaml.h)
fft3d_static_or_shared(fft3d_dep_program_options boost_program_options boost/program_options.hpp)
fft3d_static_or_shared(fft3d_dep_fftw fftw3 fftw3.h)

find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  message(STATUS "fft3d: CUDA toolkit ${CUDAToolkit_VERSION} found: building the CUDA backend")
else()
  message(STATUS "fft3d: no CUDA toolkit: CPU backend only")
endif()
