# cmake --install: the library, the C API's shared library (libfft3d_c.so), their headers, the CLI, the shipped plans and a package config for find_package(fft3d).
include(CMakePackageConfigHelpers)

install(TARGETS fft3d fft3d_support fft3d_emit fft3d_cli EXPORT fft3dTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The C API's shared library (not built with FFT3D_STATIC_DEPS): fft3d::fft3d_c.
if(TARGET fft3d_c)
  install(TARGETS fft3d_c EXPORT fft3dTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The GPU transform (NVRTC runtime, kernel cache, executor) where the toolkit was found: fft3d::fft3d_cuda.
set(FFT3D_WITH_CUDA_ENGINE OFF)
if(TARGET fft3d_cuda)
  set(FFT3D_WITH_CUDA_ENGINE ON)
  install(TARGETS fft3d_cuda EXPORT fft3dTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# Only the public API: engine/include/fft3d holds nothing else (the layers below it keep their headers in src/).
install(DIRECTORY engine/include/fft3d DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY plans/ DESTINATION ${CMAKE_INSTALL_DATADIR}/fft3d/plans)
install(EXPORT fft3dTargets NAMESPACE fft3d:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fft3d)

configure_package_config_file(cmake/fft3dConfig.cmake.in ${CMAKE_BINARY_DIR}/fft3dConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fft3d)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/fft3dConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/fft3dConfig.cmake ${CMAKE_BINARY_DIR}/fft3dConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/fft3d)
