#!/usr/bin/env bash
# The installed app's PNG icons (services/web/static/img/), made from the two SVGs beside them with
# rsvg-convert (Debian's librsvg2-bin; DejaVu/Liberation serif fonts draw the ♠). The PNGs are
# committed: run this only when an SVG changes, and commit what it writes.
#   icon.svg          -> icon-192.png, icon-512.png (purpose "any": rounded corners, transparent outside)
#   icon-maskable.svg -> icon-maskable-192.png, icon-maskable-512.png (purpose "maskable": full bleed,
#                        the ♠ inside the central 80 % circle a launcher's mask keeps),
#                        apple-touch-icon.png (180 × 180, full bleed: iOS rounds it itself)
set -euo pipefail
cd "$(dirname "$0")/../services/web/static/img"
if ! command -v rsvg-convert >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq librsvg2-bin >/dev/null
fi
for size in 192 512; do
    rsvg-convert -w "$size" -h "$size" icon.svg -o "icon-$size.png"
    rsvg-convert -w "$size" -h "$size" icon-maskable.svg -o "icon-maskable-$size.png"
done
rsvg-convert -w 180 -h 180 icon-maskable.svg -o apple-touch-icon.png
