# cuvet_unity_batches(TARGET BASE_DIR SOURCES...): compiles TARGET in batches (a unity build) of up
# to 8 files of one folder under BASE_DIR. Each batch parses the headers and generates their template
# code (nlohmann_json, std, Catch2) once, not once a file. Batching by folder means two files can
# clash (define the same name, anonymous namespaces included) only within one folder, and a new
# file moves only its own folder's batches.
function(cuvet_unity_batches target base_dir)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  foreach(source IN LISTS ARGN)
    file(RELATIVE_PATH folder ${base_dir} ${source})
    get_filename_component(folder ${folder} DIRECTORY)
    string(MAKE_C_IDENTIFIER "${target}_${folder}" folder)
    if(NOT DEFINED count_${folder})
      set(count_${folder} 0)
    endif()
    math(EXPR batch "${count_${folder}} / 8")
    set_source_files_properties(${source} PROPERTIES UNITY_GROUP ${folder}_${batch})
    math(EXPR count_${folder} "${count_${folder}} + 1")
  endforeach()
endfunction()
