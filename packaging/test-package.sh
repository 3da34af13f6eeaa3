#!/usr/bin/env bash
# Builds the packages from a finished build, unpacks the .deb into a temporary root, and checks what a user gets:
# the dependencies, the installed binary (its version, a verb on a fixture), the man page, the desktop file, the
# AppStream metainfo, the icons, and the workspace MIME type (by name and by content).
# Usage: test-package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
source="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/out" >/dev/null)
deb="$(ls "$work"/out/sightline_*_*.deb)"
tgz="$(ls "$work"/out/sightline-*.tar.gz)"
echo "built $(basename "$deb") and $(basename "$tgz")"

depends="$(dpkg-deb -f "$deb" Depends)"
for needed in libqt6core6 libqt6widgets6 libqt6sql6 libqt6sql6-sqlite libqt6sql6-psql qt6-qpa-plugins libsqlite3-0 libzstd1 libsimdjson14; do
  [[ ",$depends," == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done
echo "depends: $depends"

root="$work/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/sightline"
version="$("$bin" --version)"
[ "$version" = "sightline $(dpkg-deb -f "$deb" Version)" ] || fail "version: $version"
cp "$source/tests/data/roomkit/support.sqlite" "$work/store.sqlite"
rooms="$(XDG_CACHE_HOME="$work/cache" "$bin" rooms "$work/store.sqlite" --json | wc -l)"
[ "$rooms" = 8 ] || fail "rooms printed $rooms lines"
"$bin" events --version >/dev/null

man="$root/usr/share/man/man1/sightline.1.gz"
MANWIDTH=80 man -l "$man" 2>/dev/null | grep -q "sightline events SOURCE" || fail "the man page lacks the events verb"

app="$(basename "$root"/usr/share/applications/*.desktop .desktop)"
desktop-file-validate "$root/usr/share/applications/$app.desktop"
appstreamcli validate --no-net "$root/usr/share/metainfo/$app.metainfo.xml" >/dev/null
grep -q "<project_license>Apache-2.0</project_license>" "$root/usr/share/metainfo/$app.metainfo.xml" || fail "the metainfo names no licence"
grep -q "Apache License" "$root/usr/share/doc/sightline/copyright" || fail "the package carries no licence"
grep -q "^Icon=$app$" "$root/usr/share/applications/$app.desktop" || fail "the desktop file names another icon"
for size in 16 22 24 32 48 64 128 256 512; do
  png="$root/usr/share/icons/hicolor/${size}x${size}/apps/$app.png"
  file "$png" | grep -q "PNG image data, $size x $size" || fail "icon $size: $(file "$png")"
done
[ -f "$root/usr/share/icons/hicolor/scalable/apps/$app.svg" ] || fail "no scalable icon"

# The MIME type, as the desktop would see it: a workspace is told by its name and by its content alone.
mkdir -p "$work/share/mime/packages"
cp "$root"/usr/share/mime/packages/*.xml "$work/share/mime/packages/"
update-mime-database "$work/share/mime" >/dev/null
XDG_CACHE_HOME="$work/cache" "$bin" import "$work/store.sqlite" -o "$work/room.sightline" >/dev/null
cp "$work/room.sightline" "$work/no-extension"
for f in room.sightline no-extension; do
  type="$(XDG_DATA_DIRS="$work/share:/usr/share" gio info -a standard::content-type "$work/$f" | awk '/content-type/ {print $2}')"
  [ "$type" = "application/x-sightline-workspace" ] || fail "$f is $type"
done
grep -q "MimeType=application/x-sightline-workspace;" "$root/usr/share/applications/$app.desktop" || fail "no MimeType"

tar -tzf "$tgz" | grep -q "/bin/sightline$" || fail "the .tar.gz lacks the binary"
echo "package ok"
