#!/bin/sh
# Install CardViewer for the current user, from the unpacked CardViewer-*-linux-*.tar.gz:
# no root, no Python, nothing outside the user's home.
#
#   ./install.sh              install, or update an earlier install
#   ./install.sh --uninstall  remove everything install.sh put in place
#
# Where things go (XDG_DATA_HOME is honoured):
#   ~/.local/lib/cardviewer/                         the app (the CardViewer folder)
#   ~/.local/bin/cardviewer                          a link to start it from a terminal
#   ~/.local/share/applications/cardviewer.desktop   the menu entry
#   ~/.local/share/icons/hicolor/*/apps/cardviewer.* the icon
#   ~/.local/share/metainfo/io.github.cardviewer.CardViewer.metainfo.xml
#
# The user's settings and saved sign-in (~/.config/CardViewer) are never touched.
set -eu

app_id=cardviewer
metainfo_id=io.github.cardviewer.CardViewer
here=$(cd "$(dirname "$0")" && pwd)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
lib_dir=$HOME/.local/lib/$app_id
bin_link=$HOME/.local/bin/$app_id
desktop_file=$data_home/applications/$app_id.desktop
metainfo_file=$data_home/metainfo/$metainfo_id.metainfo.xml
icon_theme=$data_home/icons/hicolor

usage() {
    sed -n '2,6s/^# \{0,1\}//p' "$0"
}

refresh_caches() {
    # Menus pick up the changes without logging out, where these tools are installed.
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$data_home/applications" 2>/dev/null || true
    fi
    if [ -d "$icon_theme" ]; then
        touch "$icon_theme"
        if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icon_theme/index.theme" ]; then
            gtk-update-icon-cache -q -t "$icon_theme" 2>/dev/null || true
        fi
    fi
}

remove_icons() {
    for icon in "$icon_theme"/*/apps/"$app_id".png "$icon_theme"/scalable/apps/"$app_id".svg; do
        if [ -f "$icon" ]; then rm -f "$icon"; fi
    done
}

uninstall() {
    if [ -L "$bin_link" ] && [ "$(readlink "$bin_link")" = "$lib_dir/$app_id" ]; then
        rm -f "$bin_link"
    fi
    rm -rf "$lib_dir"
    rm -f "$desktop_file" "$metainfo_file"
    remove_icons
    refresh_caches
    echo "CardViewer has been removed. Your settings in ~/.config/CardViewer were kept."
}

install() {
    bundle=$here/CardViewer
    if [ ! -x "$bundle/$app_id" ]; then
        echo "install.sh: $bundle/$app_id not found; run install.sh from the unpacked archive." >&2
        exit 1
    fi
    case $lib_dir in
        *[\"\`\$\\]*)
            echo "install.sh: cannot install into $lib_dir (quote, backquote, dollar or backslash in the path)." >&2
            exit 1
            ;;
    esac

    # The new copy is made beside the old one, then swapped in.
    mkdir -p "$(dirname "$lib_dir")"
    rm -rf "$lib_dir.new"
    cp -R "$bundle" "$lib_dir.new"
    rm -rf "$lib_dir"
    mv "$lib_dir.new" "$lib_dir"

    mkdir -p "$(dirname "$bin_link")"
    ln -sfn "$lib_dir/$app_id" "$bin_link"

    # The menu entry starts the app by its full path, so it works whether or not
    # ~/.local/bin is on the desktop session's PATH.
    mkdir -p "$(dirname "$desktop_file")"
    sed -e "s|^Exec=$app_id|Exec=\"$lib_dir/$app_id\"|" \
        -e "s|^TryExec=.*|TryExec=$lib_dir/$app_id|" \
        "$here/share/applications/$app_id.desktop" >"$desktop_file.new"
    mv "$desktop_file.new" "$desktop_file"

    mkdir -p "$(dirname "$metainfo_file")"
    cp "$here/share/metainfo/$metainfo_id.metainfo.xml" "$metainfo_file"

    remove_icons
    mkdir -p "$icon_theme"
    cp -R "$here/share/icons/hicolor/." "$icon_theme/"

    refresh_caches
    echo "CardViewer is installed: start it from the applications menu, or run $bin_link"
}

case ${1:-} in
    "") install ;;
    --uninstall) uninstall ;;
    -h | --help) usage ;;
    *)
        usage >&2
        exit 2
        ;;
esac
