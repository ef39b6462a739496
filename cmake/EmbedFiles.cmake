# Data compiled into the binary so that cuvet works offline and as one file:
# the rules database and the framework smoke scripts. The generated
# translation unit is regenerated whenever one of the files changes.
function(cuvet_embed_files target name glob namespace function keep_extension)
  file(GLOB files CONFIGURE_DEPENDS ${glob})
  set(out ${CMAKE_BINARY_DIR}/generated/embedded_${name}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DGLOB=${glob} -DNAMESPACE=${namespace}
            -DFUNCTION=${function} -DKEEP_EXTENSION=${keep_extension}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "Embedding ${glob}")
  target_sources(${target} PRIVATE ${out})
endfunction()

cuvet_embed_files(cuvet_lib rules ${CMAKE_SOURCE_DIR}/rules/*.json
                  cuvet::rules embedded_rule_files ON)
# src/frameworks/smoke/*.py: the framework smoke scripts the live check runs with
# the image's own Python.
cuvet_embed_files(cuvet_lib smoke ${CMAKE_SOURCE_DIR}/src/frameworks/smoke/*.py
                  cuvet::sandbox embedded_smoke_scripts OFF)
# docs/checks/<ID>.md: each check's documentation (title, rationale, examples, fix), written
# once there and read by the checks' registry (src/checks/check_page.cpp).
cuvet_embed_files(cuvet_lib check_pages ${CMAKE_SOURCE_DIR}/docs/checks/CUV*.md
                  cuvet::checks embedded_check_pages OFF)
