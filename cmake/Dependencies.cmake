# Every dependency comes from a Debian -dev package (scripts/setup installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
if(CUVET_STATIC)
  set(OPENSSL_USE_STATIC_LIBS TRUE)  # must precede find_package(OpenSSL) to take effect
endif()
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(yaml-cpp REQUIRED)  # .cuvet.yaml; Debian 12 exports the target `yaml-cpp`

# With CUVET_STATIC the archive libraries are preferred so that the binary runs
# on hosts without these packages (the GPU test machine is Ubuntu 24.04).
if(CUVET_STATIC)
  set(_cuvet_static_flag _STATIC)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
pkg_check_modules(LIBARCHIVE REQUIRED libarchive)
pkg_check_modules(ISAL REQUIRED libisal)
pkg_check_modules(ZSTD REQUIRED libzstd)
# Registries and the Docker Engine API use libcurl, loaded with dlopen at the
# first request (src/image/registry/curl_library.cpp): only its headers (in the default
# include path) are needed to build.
find_path(CURL_INCLUDE_DIR curl/curl.h REQUIRED)

find_path(LIEF_INCLUDE_DIR LIEF/LIEF.hpp REQUIRED)
if(CUVET_STATIC)
  find_library(LIEF_LIBRARY NAMES libLIEF.a LIEF REQUIRED)
  find_library(ARCHIVE_LIBRARY NAMES libarchive.a REQUIRED)
  find_library(ISAL_LIBRARY NAMES libisal.a isal REQUIRED)
  find_library(ZSTD_LIBRARY NAMES libzstd.a REQUIRED)
else()
  find_library(LIEF_LIBRARY NAMES LIEF REQUIRED)
  find_library(ARCHIVE_LIBRARY NAMES archive REQUIRED)
  find_library(ISAL_LIBRARY NAMES isal REQUIRED)
  find_library(ZSTD_LIBRARY NAMES zstd REQUIRED)
endif()

add_library(cuvet_deps INTERFACE)
add_library(cuvet::deps ALIAS cuvet_deps)
target_include_directories(cuvet_deps SYSTEM INTERFACE ${LIEF_INCLUDE_DIR} ${LIBARCHIVE_INCLUDE_DIRS}
                           ${ISAL_INCLUDE_DIRS} ${ZSTD_INCLUDE_DIRS})
target_link_libraries(cuvet_deps INTERFACE ${LIEF_LIBRARY} ${ARCHIVE_LIBRARY} ${ISAL_LIBRARY}
                      ${ZSTD_LIBRARY} OpenSSL::Crypto nlohmann_json::nlohmann_json Threads::Threads ${CMAKE_DL_LIBS})
if(CUVET_STATIC)
  find_library(YAML_CPP_LIBRARY NAMES libyaml-cpp.a REQUIRED)
  target_link_libraries(cuvet_deps INTERFACE ${YAML_CPP_LIBRARY})
else()
  target_link_libraries(cuvet_deps INTERFACE yaml-cpp)
endif()
if(CUVET_STATIC)
  # libarchive.a's own dependencies, as its pkg-config file lists them, each as
  # an archive when its -dev package ships one, else the runtime library by
  # full path (Debian has no libacl.a or liblz4.a; libacl1 and liblz4-1 are in
  # every Debian/Ubuntu base). --as-needed drops the shared ones the tar reader
  # never calls; unused archive members are never pulled in anyway.
  foreach(dep IN LISTS LIBARCHIVE_STATIC_LIBRARIES)
    if(dep STREQUAL "archive")
      continue()
    endif()
    find_library(CUVET_STATIC_${dep} NAMES lib${dep}.a)
    if(NOT CUVET_STATIC_${dep})
      file(GLOB _cuvet_shared /usr/lib/x86_64-linux-gnu/lib${dep}.so.? /usr/lib64/lib${dep}.so.?
           /lib/x86_64-linux-gnu/lib${dep}.so.?)
      list(GET _cuvet_shared 0 _cuvet_first)
      set(CUVET_STATIC_${dep} ${_cuvet_first})
    endif()
    target_link_libraries(cuvet_deps INTERFACE ${CUVET_STATIC_${dep}})
  endforeach()
  # libLIEF.a's own dependencies (libLIEF.so.0 NEEDs them); libmbedtls-dev has the archives.
  find_library(CUVET_MBEDX509 NAMES libmbedx509.a REQUIRED)
  find_library(CUVET_MBEDCRYPTO NAMES libmbedcrypto.a REQUIRED)
  target_link_libraries(cuvet_deps INTERFACE ${CUVET_MBEDX509} ${CUVET_MBEDCRYPTO})
  target_link_options(cuvet_deps INTERFACE -Wl,--as-needed)
  # Debian's libisal-dev ships no libisal.a: the static cuvet finds
  # libisal.so.2 beside itself ($ORIGIN), where the build copies it.
  if(ISAL_LIBRARY MATCHES "\\.so$")
    file(GLOB CUVET_ISAL_RUNTIME ${ISAL_LIBRARY}.?)
  endif()
endif()

find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  message(STATUS "cuvet: CUDA Toolkit ${CUDAToolkit_VERSION} found (GPU probe will be built)")
else()
  message(STATUS "cuvet: no CUDA Toolkit (GPU probe not built; everything else is)")
endif()
