#!/usr/bin/env bash
# Installs the Debian 12 packages that building, running and testing Sightline need, and nothing when they
# are all there already (so it is cheap to run before every build).
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config             # the build
  qt6-base-dev qt6-base-dev-tools libgl-dev           # Qt 6.4 Core, Gui, Widgets, Sql, Test
  qt6-svg-dev                                         # QSvgGenerator: the waterfall saved as SVG
  libqt6sql6-sqlite libsqlite3-dev sqlite3            # SQLite through QtSql, and its C API on hot paths
  libqt6sql6-psql                                     # QPSQL: RoomKit's and kaboo's PostgreSQL stores
  postgresql                                          # a throwaway server for the tests (tests/pg/pgcluster.sh)
  qt6-qpa-plugins fonts-dejavu-core fonts-noto-color-emoji  # a window on X11 (offscreen in tests), text, emoji
  xvfb xauth imagemagick                              # screenshots of the real window without a display
  clang libclang-rt-14-dev                            # libFuzzer, for the coverage-guided fuzz test
  poppler-utils                                       # pdftotext: what a PDF report says, as a reader's tool reads it
  python3                                             # tests: another process holding a store's lock, a killed writer
  libzstd-dev                                         # zstd: the workspace's big text packed (TextPacker)
  libsimdjson-dev                                     # simdjson: CraftBot's action values checked and read
  libssl-dev openssl                                  # Ed25519 signatures of report manifests; keys made by openssl
  librsvg2-bin dpkg-dev file man-db                   # icons from the SVG, the .deb's dependencies, its checks
  desktop-file-utils appstream shared-mime-info libglib2.0-bin  # validating the desktop integration
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "Installing: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
