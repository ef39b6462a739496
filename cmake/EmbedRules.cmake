# rules/*.json are compiled into the binary so that cuvet works offline; the
# generated translation unit is regenerated whenever a rules file changes.
file(GLOB CUVET_RULE_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/rules/*.json)
set(CUVET_EMBEDDED_RULES_CPP ${CMAKE_BINARY_DIR}/generated/embedded_rules.cpp)
add_custom_command(
  OUTPUT ${CUVET_EMBEDDED_RULES_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUT=${CUVET_EMBEDDED_RULES_CPP} -DRULES_DIR=${CMAKE_SOURCE_DIR}/rules
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_rules.cmake
  DEPENDS ${CUVET_RULE_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed_rules.cmake
  COMMENT "Embedding rules/*.json")
target_sources(cuvet_lib PRIVATE ${CUVET_EMBEDDED_RULES_CPP})
