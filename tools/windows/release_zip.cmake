# The Windows release zip, included by CMakeLists.txt in an engines-only mingw-w64 build
# (tools/setup.sh windows): `cmake --build build-windows --target windows_zip` writes
# bge-VERSION-windows-x86_64.zip into the build folder, every file at its root:
#   tak.exe gomoku.exe twixt.exe ur.exe expendibots.exe   the engines, statically linked
#   pbrain-bge.exe                                        gomoku.exe under the name Gomocup requires
#   README.txt                                            how to use them (tools/windows/README.txt)
#   THIRD-PARTY.txt                                       the licences of what is linked in
# The notices of what the static link puts into the engines, taken from the Debian packages that
# supplied it: the mingw-w64 runtime and winpthreads, GCC's runtime (libstdc++, libgcc, under the
# GCC Runtime Library Exception) and fmt.
set(bge_notice ${PROJECT_BINARY_DIR}/THIRD-PARTY.txt)
set(bge_notice_text "The Windows engines are statically linked with the libraries below. Their licences and
notices follow, as the Debian packages that supplied them state them.\n")
foreach(copyright IN ITEMS /usr/share/doc/mingw-w64-common/copyright /usr/share/doc/gcc-mingw-w64-base/copyright
                           /usr/share/doc/libfmt9/copyright /usr/share/doc/libfmt-dev/copyright)
  if(EXISTS ${copyright})
    file(READ ${copyright} text)
    string(APPEND bge_notice_text "\n==== ${copyright}\n\n${text}")
  endif()
endforeach()
file(WRITE ${bge_notice}.new "${bge_notice_text}")
configure_file(${bge_notice}.new ${bge_notice} COPYONLY)  # rewritten only when it changed

set(bge_zip_name bge-${PROJECT_VERSION}-windows-x86_64)
set(bge_zip_stage ${PROJECT_BINARY_DIR}/${bge_zip_name})
set(bge_zip ${PROJECT_BINARY_DIR}/${bge_zip_name}.zip)
set(bge_zip_engines tak gomoku twixt ur expendibots)
set(bge_zip_copies "")
set(bge_zip_files pbrain-bge.exe README.txt THIRD-PARTY.txt)
foreach(engine IN LISTS bge_zip_engines)
  list(APPEND bge_zip_copies COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:${engine}> ${bge_zip_stage}/${engine}.exe)
  list(APPEND bge_zip_files ${engine}.exe)
endforeach()
add_custom_command(
  OUTPUT ${bge_zip}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${bge_zip_stage}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${bge_zip_stage}
  ${bge_zip_copies}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:gomoku> ${bge_zip_stage}/pbrain-bge.exe
  COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/tools/windows/README.txt ${bge_zip_stage}/README.txt
  COMMAND ${CMAKE_COMMAND} -E copy ${bge_notice} ${bge_zip_stage}/THIRD-PARTY.txt
  COMMAND ${CMAKE_COMMAND} -E rm -f ${bge_zip}
  # Every file at the root of the zip, where Gomocup's manager looks for the pbrain- brain.
  COMMAND ${CMAKE_COMMAND} -E chdir ${bge_zip_stage} ${CMAKE_COMMAND} -E tar cf ${bge_zip} --format=zip
          ${bge_zip_files}
  DEPENDS ${bge_zip_engines} ${PROJECT_SOURCE_DIR}/tools/windows/README.txt ${bge_notice}
  COMMENT "Writing ${bge_zip_name}.zip"
  VERBATIM)
add_custom_target(windows_zip ALL DEPENDS ${bge_zip})
