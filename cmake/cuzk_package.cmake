# SPDX-License-Identifier: Apache-2.0
# The Debian package (docs/packaging.md): `cpack -G DEB` in a configured, built build directory
# (scripts/package_test.sh builds and checks one in CI). It holds the three binaries cuzk,
# cuzk-daemon and cuzk-bench in /usr/bin, the systemd unit, /etc/cuzk/cuzk.toml (a conffile, every
# key at its default, commented out), the sysusers.d and tmpfiles.d files of the user cuzk, the
# group curio and /run/curio, and the README. Dependencies: dpkg-shlibdeps on the binaries; the
# CUDA runtime is linked statically (CUZK_CUDA_RUNTIME), so the target needs no CUDA toolkit,
# only the NVIDIA driver for its GPUs, which no dependency names (it is often not a Debian
# package).
#
# The system files are the component `system`, outside `cmake --install`'s default set
# (EXCLUDE_FROM_ALL): `cmake --install build --prefix /usr/local` installs the binaries only,
# never into /etc or /lib. cpack installs both components into the one package.
set(cuzk_deploy ${PROJECT_SOURCE_DIR}/deploy)
install(FILES ${cuzk_deploy}/cuzk.toml DESTINATION /etc/cuzk COMPONENT system EXCLUDE_FROM_ALL)
install(FILES ${cuzk_deploy}/systemd/cuzk.service DESTINATION /lib/systemd/system
        COMPONENT system EXCLUDE_FROM_ALL)
install(FILES ${cuzk_deploy}/sysusers.d/cuzk.conf DESTINATION lib/sysusers.d COMPONENT system
        EXCLUDE_FROM_ALL)
install(FILES ${cuzk_deploy}/tmpfiles.d/cuzk.conf DESTINATION lib/tmpfiles.d COMPONENT system
        EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/cuzk COMPONENT system
        EXCLUDE_FROM_ALL)

# What device code the package carries, said in its description (`dpkg-deb --info`): a package of
# CI's build (PTX only, unoptimized) is a packaging test, not something to prove with.
set(cuzk_package_device "CPU only (built without CUDA)")
if(CUZK_WITH_CUDA)
  get_target_property(cuzk_package_archs cuzk_gpu CUDA_ARCHITECTURES)
  set(cuzk_package_device "CUDA device code ${cuzk_package_archs}")
  if(CMAKE_CUDA_FLAGS)
    string(APPEND cuzk_package_device " (CUDA flags: ${CMAKE_CUDA_FLAGS})")
  endif()
  string(APPEND cuzk_package_device ", CUDA runtime ${CUZK_CUDA_RUNTIME}")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Groth16 proving engine and daemon for Filecoin (Curio cuzk.v1)")
# Continuation lines of a Debian description start with a space.
string(JOIN "\n " CPACK_DEBIAN_PACKAGE_DESCRIPTION
       "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}"
       "cuzk proves PoRep C2, SnapDeals, WindowPoSt and WinningPoSt on NVIDIA GPUs (or the"
       "CPU) and serves Curio's cuzk.v1 gRPC protocol as cuzk-daemon (systemd unit cuzk.service,"
       "configuration /etc/cuzk/cuzk.toml)."
       "Built: ${CMAKE_BUILD_TYPE}, ${cuzk_package_device}.")
set(CUZK_PACKAGE_MAINTAINER "cuzk maintainers <maintainers@users.noreply.a-seed-861ebea3.example>"
    CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CUZK_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # cuzk_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "systemd")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${cuzk_deploy}/debian/conffiles ${cuzk_deploy}/debian/postinst ${cuzk_deploy}/debian/prerm
    ${cuzk_deploy}/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
# The binaries (the default component, Unspecified) and the system files, in one package;
# cuzk-microbench (component microbench) stays out.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL Unspecified system)
set(CPACK_DEBIAN_PACKAGE_NAME cuzk)
set(CPACK_STRIP_FILES ON)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_BINARY_DIR}/package)
include(CPack)
