# `cmake --install`, the generated shell completions and man page, and the
# Debian package (cpack -G DEB). scripts/release drives all of it.
include(GNUInstallDirs)
# scripts/release builds exactly what ships, then installs and packs it: cpack
# must not build `all` (the sample image, benchmarks) first.
if(CUVET_STATIC)
  set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
endif()

# SARIF helpUri/informationUri and the man page point at the repository the
# build comes from: origin's URL (git@host:o/r.git becomes https://host/o/r;
# credentials in it, as GitLab CI's https://gitlab-ci-token:TOKEN@host/… clones
# have, are dropped), at the commit configured. Nothing is guessed: without a
# remote, no URL.
if(NOT DEFINED CACHE{CUVET_REPOSITORY_URL})
  set(_cuvet_url "")
  execute_process(COMMAND git -C ${CMAKE_SOURCE_DIR} remote get-url origin OUTPUT_VARIABLE _cuvet_remote
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _cuvet_git)
  if(_cuvet_git EQUAL 0 AND _cuvet_remote MATCHES "^(https://[^/@]+@|https://|git@|ssh://git@)([^/:@]+)[:/](.+)$")
    set(_cuvet_url "https://${CMAKE_MATCH_2}/${CMAKE_MATCH_3}")
    string(REGEX REPLACE "\\.git$" "" _cuvet_url "${_cuvet_url}")
  endif()
  set(CUVET_REPOSITORY_URL "${_cuvet_url}" CACHE STRING "https URL of cuvet's repository (SARIF informationUri); empty: none")
endif()
execute_process(COMMAND git -C ${CMAKE_SOURCE_DIR} rev-parse HEAD OUTPUT_VARIABLE CUVET_REVISION
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# Where the check pages (docs/checks/ID.md) are read on the web: SARIF helpUri is
# CUVET_DOCS_URL/ID.md. Unset, the repository's docs/checks at the commit built
# (none when the repository is not known); `none`: no helpUri. The environment
# variable CUVET_DOCS_URL overrides it at run time (docs/report-formats.md).
set(CUVET_DOCS_URL "" CACHE STRING "URL of the directory holding the check pages ID.md (SARIF helpUri); empty: the repository's docs/checks at the commit built; none: no helpUri")
set(_cuvet_docs "${CUVET_DOCS_URL}")
if(_cuvet_docs STREQUAL "none")
  set(_cuvet_docs "")
elseif(NOT _cuvet_docs AND CUVET_REPOSITORY_URL)
  set(_cuvet_rev "${CUVET_REVISION}")
  if(NOT _cuvet_rev)
    set(_cuvet_rev HEAD)
  endif()
  set(_cuvet_docs "${CUVET_REPOSITORY_URL}/blob/${_cuvet_rev}/docs/checks")
endif()
# Only the file that uses them is rebuilt when the commit changes.
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/cli/check_docs.cpp PROPERTIES COMPILE_DEFINITIONS
  "CUVET_REPOSITORY_URL=\"${CUVET_REPOSITORY_URL}\";CUVET_DOCS_URL=\"${_cuvet_docs}\"")

# Completions and the man page come from the binary's own CLI definition.
set(CUVET_SHARE_FILES
    ${CMAKE_BINARY_DIR}/share/bash-completion/completions/cuvet
    ${CMAKE_BINARY_DIR}/share/zsh/vendor-completions/_cuvet
    ${CMAKE_BINARY_DIR}/share/fish/vendor_completions.d/cuvet.fish
    ${CMAKE_BINARY_DIR}/share/man/man1/cuvet.1)
add_custom_command(
  OUTPUT ${CUVET_SHARE_FILES}
  COMMAND ${CMAKE_COMMAND} -DCUVET=$<TARGET_FILE:cuvet> -DOUT=${CMAKE_BINARY_DIR}/share
          -P ${CMAKE_SOURCE_DIR}/cmake/generate_share_files.cmake
  DEPENDS cuvet ${CMAKE_SOURCE_DIR}/cmake/generate_share_files.cmake
  COMMENT "Generating cuvet's shell completions and man page"
  VERBATIM)
add_custom_target(cuvet_share_files ALL DEPENDS ${CUVET_SHARE_FILES})

install(TARGETS cuvet RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET cuvet-probe)
  # find_probe_binary() looks in ../libexec/cuvet beside bin/cuvet.
  install(TARGETS cuvet-probe RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/cuvet)
endif()
# The static build's libisal.so.2 (Debian ships no libisal.a) goes beside the
# binary in the tarball only; the Debian package depends on libisal2 instead.
# CUVET_ISAL_RUNTIME is Debian's libisal.so.2 symlink: install the file it
# names under that name, or the tarball holds a link to nothing.
if(CUVET_STATIC AND CUVET_ISAL_RUNTIME)
  file(REAL_PATH "${CUVET_ISAL_RUNTIME}" _cuvet_isal_file)
  get_filename_component(_cuvet_isal_name "${CUVET_ISAL_RUNTIME}" NAME)
  install(FILES ${_cuvet_isal_file} DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME ${_cuvet_isal_name}
          COMPONENT bundled_runtime EXCLUDE_FROM_ALL)
endif()
install(FILES ${CMAKE_BINARY_DIR}/share/bash-completion/completions/cuvet
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${CMAKE_BINARY_DIR}/share/zsh/vendor-completions/_cuvet
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${CMAKE_BINARY_DIR}/share/fish/vendor_completions.d/cuvet.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES ${CMAKE_BINARY_DIR}/share/man/man1/cuvet.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME cuvet)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "cuvet maintainers <dev@cuvet.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "catch CUDA/cuDNN breakage in container images before they ship")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
if(CUVET_REPOSITORY_URL)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${CUVET_REPOSITORY_URL})
endif()
# glibc 2.36 is what the build links against (Debian 12); libcurl4 is
# dlopen()ed for registries and the daemon, skopeo reads containers-storage.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.36), libisal2")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcurl4, ca-certificates")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "skopeo")
set(CPACK_PACKAGE_DESCRIPTION
    "cuvet validates the CUDA/cuDNN stack of a container image without a GPU: every library the loader would load, cuDNN/CUDA/driver versions, GPU kernels, glibc; it lints Dockerfiles and gates CI with SARIF, JUnit and GitLab Code Quality reports.")
include(CPack)
