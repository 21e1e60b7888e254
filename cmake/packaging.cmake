# SPDX-License-Identifier: Apache-2.0
# Install rules for a desktop program (the kix binary's own rule is in app/CMakeLists.txt) and the CPack .deb.
#   cmake --install build/package --prefix /usr      # or: cpack --config build/package/CPackConfig.cmake
# docs/packaging.md says what the package holds and how .ci/run checks it.

install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/kix.desktop"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/io.github.kix.kix.metainfo.xml"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/hicolor/scalable/apps/kix.svg"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES "${PROJECT_SOURCE_DIR}/resources/man/kix.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
# Debian keeps the licence as /usr/share/doc/PACKAGE/copyright.
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}" RENAME copyright)
# The bundled runs as files a new user can open or copy (/usr/share/kix/runs; not under doc/, which minimal
# images leave out).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/resources/runs/" DESTINATION "${CMAKE_INSTALL_DATADIR}/kix/runs")

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "kix")
set(CPACK_PACKAGE_VENDOR "The kix developers")
set(CPACK_PACKAGE_CONTACT "The kix developers <kix@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU kernel benchmark explorer (kernelindex runs)")
set(CPACK_PACKAGE_DESCRIPTION
    "kix is a Qt desktop explorer for GPU kernel benchmark runs in the kernelindex format: it loads folders of runs,
filters them, compares two runs and draws quantile, sweep, speed-up and history charts. Every view has a headless
command (kix summary, kix compare, kix chart) for scripts and CI.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # kix_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Depends: computed by dpkg-shlibdeps from the libraries the binary links (Qt 6, simdjson, libstdc++ ...). Qt's
# platform plugins (xcb, offscreen) come with libqt6gui6 on Debian 12 and the SVG plugins with libqt6svg6, both of
# which the binary links, so shlibdeps covers them too.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
include(CPack)
