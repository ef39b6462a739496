# src/sandbox/smoke/*.py, the framework smoke scripts the live check runs with
# the image's own Python, are compiled into the binary like the rules.
file(GLOB CUVET_SMOKE_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/sandbox/smoke/*.py)
set(CUVET_EMBEDDED_SMOKE_CPP ${CMAKE_BINARY_DIR}/generated/embedded_smoke.cpp)
add_custom_command(
  OUTPUT ${CUVET_EMBEDDED_SMOKE_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUT=${CUVET_EMBEDDED_SMOKE_CPP} -DSMOKE_DIR=${CMAKE_SOURCE_DIR}/src/sandbox/smoke
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_smoke.cmake
  DEPENDS ${CUVET_SMOKE_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_smoke.cmake
  COMMENT "Embedding src/sandbox/smoke/*.py")
target_sources(cuvet_lib PRIVATE ${CUVET_EMBEDDED_SMOKE_CPP})
