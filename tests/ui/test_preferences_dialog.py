"""The Preferences dialog: shows the settings, saves on OK only, refuses bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialog,
    QLabel,
    QMessageBox,
    QWidget,
)

from cardviewer import i18n
from cardviewer.services.settings import MAX_EXPORT_CONCURRENCY, Settings
from cardviewer.ui import preferences_dialog
from cardviewer.ui.preferences_dialog import (
    PreferencesDialog,
    export_csv_delimiter,
    locale_csv_delimiter,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "settings.json"


@pytest.fixture
def saved(path) -> Settings:
    settings = Settings(
        path=path,
        last_server="https://cards.example.com",
        last_email="ada@example.com",
        export_format="xlsx",
        csv_delimiter=";",
        export_concurrency=6,
        language="de",
    )
    settings.save()
    return settings


@pytest.fixture
def make_dialog(qtbot):
    def make(settings: Settings, **kwargs) -> PreferencesDialog:
        dialog = PreferencesDialog(settings, **kwargs)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    return make


def choose(combo: QComboBox, data: str) -> None:
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def press_ok(qtbot, dialog: PreferencesDialog) -> None:
    assert dialog.ok_button.isEnabled()
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)


def server_message(dialog: PreferencesDialog) -> str:
    """Why the address cannot be used, as shown under it; "" when nothing is shown."""
    return "" if dialog.server_message_frame.isHidden() else dialog.server_message_label.text()


def visible_boxes(dialog: QWidget) -> list[QMessageBox]:
    return [box for box in dialog.findChildren(QMessageBox) if box.isVisible()]


# Showing


def test_the_fields_show_the_settings(make_dialog, saved):
    dialog = make_dialog(saved)
    assert dialog.windowTitle() == "Preferences"
    assert dialog.server_edit.text() == "https://cards.example.com"
    assert dialog.format_combo.currentData() == "xlsx"
    assert dialog.delimiter_combo.currentData() == ";"
    assert dialog.concurrency_spin.value() == 6
    assert dialog.language_combo.currentData() == "de"
    assert dialog.language_combo.currentText() == "Deutsch"
    assert dialog.ok_button.isEnabled()
    assert server_message(dialog) == ""


def test_the_defaults_show_as_automatic_and_system(make_dialog, path):
    dialog = make_dialog(Settings(path=path))
    assert dialog.server_edit.text() == ""
    assert dialog.format_combo.currentData() == "csv"
    assert dialog.delimiter_combo.currentData() == ""
    assert dialog.delimiter_combo.currentText().startswith("Automatic")
    assert dialog.concurrency_spin.value() == Settings().export_concurrency
    assert dialog.language_combo.currentText() == "System default"
    assert dialog.ok_button.isEnabled()


def test_the_choices_offered(make_dialog, path):
    dialog = make_dialog(Settings(path=path))

    def items(combo: QComboBox) -> list[tuple[str, str]]:
        return [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]

    assert items(dialog.format_combo) == [("CSV", "csv"), ("Excel workbook (.xlsx)", "xlsx")]
    assert items(dialog.delimiter_combo) == [
        ("Automatic (from the language: ; or ,)", ""),
        ("Comma (,)", ","),
        ("Semicolon (;)", ";"),
    ]
    assert items(dialog.language_combo) == [
        ("System default", ""),
        ("English", "en"),
        ("Deutsch", "de"),
    ]
    assert (dialog.concurrency_spin.minimum(), dialog.concurrency_spin.maximum()) == (
        1,
        MAX_EXPORT_CONCURRENCY,
    )


def test_a_language_this_version_does_not_offer_stays_chosen(make_dialog, qtbot, path):
    settings = Settings(path=path, language="fr")
    dialog = make_dialog(settings)
    assert dialog.language_combo.currentData() == "fr"
    assert dialog.language_combo.currentText() == QLocale("fr").nativeLanguageName()
    press_ok(qtbot, dialog)
    assert Settings.load(path).language == "fr"


def test_hints_explain_the_delimiter_concurrency_and_language(make_dialog, path):
    dialog = make_dialog(Settings(path=path))
    assert "semicolon" in dialog.delimiter_hint.text()
    assert "German Excel" in dialog.delimiter_hint.text()
    assert "Export All Pages" in dialog.concurrency_hint.text()
    assert "restart" in dialog.language_hint.text()
    hint_size = dialog.language_hint.font().pointSizeF()
    assert hint_size < dialog.font().pointSizeF()


# Saving and cancelling


def test_ok_saves_the_edited_values(make_dialog, qtbot, saved, path):
    dialog = make_dialog(saved)
    dialog.server_edit.clear()
    qtbot.keyClicks(dialog.server_edit, "other.example.org/v1/")
    choose(dialog.format_combo, "csv")
    choose(dialog.delimiter_combo, ",")
    dialog.concurrency_spin.setValue(2)
    choose(dialog.language_combo, "en")
    dialog.qr_codes_check.setChecked(True)
    dialog.pictures_check.setChecked(True)
    dialog.photos_check.setChecked(True)
    with qtbot.waitSignal(dialog.settingsChanged, timeout=1000):
        press_ok(qtbot, dialog)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert not dialog.isVisible()

    loaded = Settings.load(path)
    assert loaded.last_server == "https://other.example.org"
    assert loaded.export_format == "csv"
    assert loaded.csv_delimiter == ","
    assert loaded.export_concurrency == 2
    assert loaded.language == "en"
    assert loaded.phone_list_qr_codes
    assert loaded.phone_list_pictures
    assert loaded.vcard_photos
    assert loaded.last_email == "ada@example.com"  # not the dialog's to change
    assert loaded == saved  # the object the app holds has the new values too


def test_ok_keeps_what_the_dialog_does_not_edit(make_dialog, qtbot, path):
    path.write_text(
        json.dumps({"theme": "dark", "recent_spaces": ["s1"], "window_state": "AAAA"}),
        encoding="utf-8",
    )
    dialog = make_dialog(Settings.load(path))
    choose(dialog.delimiter_combo, ";")
    press_ok(qtbot, dialog)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["theme"] == "dark"
    assert document["recent_spaces"] == ["s1"]
    assert document["window_state"] == "AAAA"
    assert document["csv_delimiter"] == ";"


def test_an_empty_server_address_is_allowed(make_dialog, qtbot, saved, path):
    dialog = make_dialog(saved)
    dialog.server_edit.clear()
    assert server_message(dialog) == ""
    press_ok(qtbot, dialog)
    assert Settings.load(path).last_server == ""


def test_cancel_changes_nothing(make_dialog, qtbot, saved, path):
    before = path.read_bytes()
    dialog = make_dialog(saved)
    dialog.server_edit.setText("https://other.example.org")
    choose(dialog.format_combo, "csv")
    dialog.concurrency_spin.setValue(1)
    choose(dialog.language_combo, "")
    with qtbot.assertNotEmitted(dialog.settingsChanged):
        qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert path.read_bytes() == before
    assert saved == Settings.load(path)
    assert saved.export_format == "xlsx"
    assert saved.last_server == "https://cards.example.com"


def test_escape_cancels(make_dialog, qtbot, saved, path):
    before = path.read_bytes()
    dialog = make_dialog(saved)
    dialog.concurrency_spin.setValue(1)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert path.read_bytes() == before


# The server address


def test_a_locked_server_is_read_only_and_kept(make_dialog, qtbot, saved, path):
    dialog = make_dialog(saved, server_locked=True)
    assert dialog.server_edit.isReadOnly()
    base, window = QPalette.ColorRole.Base, QPalette.ColorRole.Window
    assert dialog.server_edit.palette().color(base) == dialog.palette().color(window)
    assert "administrator" in dialog.server_edit.toolTip()
    assert "administrator" in dialog.server_hint.text()
    assert dialog.server_hint.isVisible()
    qtbot.keyClicks(dialog.server_edit, "x")
    assert dialog.server_edit.text() == "https://cards.example.com"
    choose(dialog.format_combo, "csv")
    press_ok(qtbot, dialog)
    loaded = Settings.load(path)
    assert loaded.last_server == "https://cards.example.com"
    assert loaded.export_format == "csv"


def test_a_locked_server_is_not_checked(make_dialog, path):
    # Whatever the administrator set is not the person's to correct here.
    dialog = make_dialog(
        Settings(path=path, last_server="http://cards.example.com"), server_locked=True
    )
    assert server_message(dialog) == ""
    assert dialog.ok_button.isEnabled()


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("http://cards.example.com", "not encrypted"),
        ("ftp://cards.example.com", "not a web address"),
        ("https://", "not a web address"),
    ],
)
def test_an_invalid_address_is_refused_with_a_message(
    make_dialog, qtbot, saved, path, address, why
):
    before = path.read_bytes()
    dialog = make_dialog(saved)
    dialog.server_edit.setText(address)
    assert why in server_message(dialog)
    assert dialog.server_message_label.isVisible()
    assert not dialog.server_hint.isVisible()
    assert not dialog.ok_button.isEnabled()

    dialog.accept()  # e.g. Enter in a field: refused just the same
    assert dialog.isVisible()
    assert path.read_bytes() == before
    assert saved.last_server == "https://cards.example.com"


def test_in_german_the_address_is_refused_in_german(make_dialog, path, qapp):
    i18n.install_translators(qapp, "de")
    try:
        dialog = make_dialog(Settings(path=path))
        dialog.server_edit.setText("http://cards.example.com")
        message = server_message(dialog)
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())
    assert message.startswith("Die Adresse http://cards.example.com ist nicht verschlüsselt")


def wrapped_texts_cut(qtbot, dialog: PreferencesDialog) -> list[str]:
    """The hints and warnings that show fewer lines than they have, at the dialog's smallest."""
    dialog.resize(1, 1)
    qtbot.waitUntil(lambda: dialog.size() == dialog.minimumSize())
    labels = [w for w in dialog.findChildren(QLabel) if w.isVisible() and w.wordWrap()]
    return [w.text() for w in labels if w.heightForWidth(w.width()) > w.height()]


def test_at_its_smallest_every_hint_and_warning_shows_whole(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    assert wrapped_texts_cut(qtbot, dialog) == []
    dialog.server_edit.setText("http://cards.example.com")
    assert dialog.server_message_label.isVisible()
    assert wrapped_texts_cut(qtbot, dialog) == []


def test_correcting_the_address_clears_the_message(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    dialog.server_edit.setText("http://cards.example.com")
    assert server_message(dialog)
    dialog.server_edit.setText("https://cards.example.com")
    assert server_message(dialog) == ""
    assert not dialog.server_message_label.isVisible()
    assert dialog.server_hint.isVisible()
    assert dialog.ok_button.isEnabled()


def test_a_local_test_server_may_use_http(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    dialog.server_edit.setText("http://127.0.0.1:8080/")
    assert server_message(dialog) == ""
    press_ok(qtbot, dialog)
    assert Settings.load(path).last_server == "http://127.0.0.1:8080"


# The buttons that act at once


def test_clear_avatar_cache_asks_the_app(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    with qtbot.waitSignal(dialog.clearAvatarCacheRequested, timeout=1000):
        qtbot.mouseClick(dialog.clear_cache_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    assert not path.exists()  # nothing saved by it


def test_sign_out_asks_the_app(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path), signed_in=True)
    assert dialog.sign_out_button.isEnabled()
    with qtbot.waitSignal(dialog.signOutRequested, timeout=1000):
        qtbot.mouseClick(dialog.sign_out_button, Qt.MouseButton.LeftButton)
    dialog.set_signed_in(False)
    assert not dialog.sign_out_button.isEnabled()


def test_sign_out_is_disabled_when_signed_out(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    assert not dialog.sign_out_button.isEnabled()
    with qtbot.assertNotEmitted(dialog.signOutRequested):
        qtbot.mouseClick(dialog.sign_out_button, Qt.MouseButton.LeftButton)


def test_the_action_buttons_do_not_take_enter(make_dialog, path):
    dialog = make_dialog(Settings(path=path), signed_in=True)
    assert not dialog.sign_out_button.autoDefault()
    assert not dialog.clear_cache_button.autoDefault()


# A save that fails


def test_a_failed_save_warns_and_keeps_the_dialog_open(make_dialog, qtbot, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    settings = Settings(path=blocker / "settings.json", export_format="xlsx")
    dialog = make_dialog(settings)
    choose(dialog.format_combo, "csv")
    dialog.concurrency_spin.setValue(1)
    with qtbot.assertNotEmitted(dialog.settingsChanged):
        press_ok(qtbot, dialog)
    qtbot.waitUntil(lambda: bool(visible_boxes(dialog)), timeout=2000)
    (box,) = visible_boxes(dialog)
    assert box.icon() == QMessageBox.Icon.Warning
    assert str(settings.path) in box.text()
    assert box.informativeText() == "A file is where a folder should be; move it away."
    assert dialog.isVisible()
    assert dialog.result() != QDialog.DialogCode.Accepted
    # The object is as before, so a Cancel now still changes nothing...
    assert (settings.export_format, settings.export_concurrency) == ("xlsx", 4)
    # ... and the edits are still in the form to try again.
    assert dialog.format_combo.currentData() == "csv"
    box.close()


def test_a_save_that_works_on_the_second_try(make_dialog, qtbot, tmp_path):
    blocker = tmp_path / "later-a-folder"
    blocker.write_text("", encoding="utf-8")
    settings = Settings(path=blocker / "settings.json")
    dialog = make_dialog(settings)
    choose(dialog.delimiter_combo, ";")
    press_ok(qtbot, dialog)
    qtbot.waitUntil(lambda: bool(visible_boxes(dialog)), timeout=2000)
    visible_boxes(dialog)[0].close()
    blocker.unlink()
    with qtbot.waitSignal(dialog.settingsChanged, timeout=1000):
        press_ok(qtbot, dialog)
    assert Settings.load(settings.path).csv_delimiter == ";"


# Keyboard and accessibility


@pytest.mark.usefixtures("language")
def test_labels_have_mnemonics_and_buddies(make_dialog, path):
    dialog = make_dialog(Settings(path=path), signed_in=True)
    buddies = {
        label.buddy(): label.text() for label in dialog.findChildren(QLabel) if label.buddy()
    }
    fields = (
        dialog.server_edit,
        dialog.format_combo,
        dialog.delimiter_combo,
        dialog.concurrency_spin,
        dialog.language_combo,
    )
    for field in fields:
        assert field in buddies, field.accessibleName()
        assert "&" in buddies[field]
    texts = [*buddies.values()]
    texts += [button.text() for button in dialog.findChildren(QAbstractButton)]
    letters = [text[text.index("&") + 1].lower() for text in texts if "&" in text]
    assert len(letters) == len(set(letters)), letters


def test_alt_letter_focuses_the_field(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    dialog.activateWindow()
    qtbot.waitUntil(dialog.server_edit.hasFocus, timeout=1000)
    qtbot.keyClick(dialog.server_edit, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialog.concurrency_spin.hasFocus, timeout=1000)


def test_inputs_have_accessible_names_and_descriptions(make_dialog, path):
    dialog = make_dialog(Settings(path=path))
    for widget, name in (
        (dialog.server_edit, "Server address"),
        (dialog.format_combo, "Default export format"),
        (dialog.delimiter_combo, "CSV delimiter"),
        (dialog.concurrency_spin, "Pages at once"),
        (dialog.language_combo, "Language"),
    ):
        assert widget.accessibleName() == name
        assert widget.accessibleDescription()


def test_tab_goes_down_the_form(make_dialog, path):
    dialog = make_dialog(Settings(path=path), signed_in=True)
    expected = [
        dialog.server_edit,
        dialog.format_combo,
        dialog.delimiter_combo,
        dialog.concurrency_spin,
        dialog.language_combo,
        dialog.sign_out_button,
        dialog.clear_cache_button,
        dialog.ok_button,
        dialog.cancel_button,
    ]
    # Inner widgets (the spin box's line edit) may sit in the chain: skip them.
    chain, widget = [], expected[0]
    for _ in range(40):
        if widget in expected and widget not in chain:
            chain.append(widget)
        widget = widget.nextInFocusChain()
    assert chain == expected


def test_focus_starts_at_the_first_field_that_can_change(make_dialog, qtbot, path):
    dialog = make_dialog(Settings(path=path))
    dialog.activateWindow()
    qtbot.waitUntil(dialog.server_edit.hasFocus, timeout=1000)
    locked = make_dialog(Settings(path=path), server_locked=True)
    locked.activateWindow()
    qtbot.waitUntil(locked.format_combo.hasFocus, timeout=1000)


# The delimiter exports use


@pytest.mark.parametrize(
    ("locale", "delimiter"),
    [
        (QLocale(QLocale.Language.German, QLocale.Country.Germany), ";"),
        (QLocale(QLocale.Language.French, QLocale.Country.France), ";"),
        (QLocale(QLocale.Language.English, QLocale.Country.UnitedStates), ","),
        (QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom), ","),
        (QLocale.c(), ","),
    ],
)
def test_the_locale_decides_the_automatic_delimiter(locale, delimiter):
    assert locale_csv_delimiter(locale) == delimiter
    assert export_csv_delimiter(Settings(), locale) == delimiter


def test_the_automatic_delimiter_follows_the_default_locale():
    previous = QLocale()
    try:
        QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
        assert locale_csv_delimiter() == ";"
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        assert locale_csv_delimiter() == ","
    finally:
        QLocale.setDefault(previous)


@pytest.mark.parametrize("chosen", [",", ";"])
def test_a_chosen_delimiter_wins_over_the_locale(chosen):
    for locale in (QLocale(QLocale.Language.German), QLocale(QLocale.Language.English)):
        assert export_csv_delimiter(Settings(csv_delimiter=chosen), locale) == chosen


def test_the_dialog_fits_a_small_screen_with_its_buttons_on_it(make_dialog, tmp_path, monkeypatch):
    """On a screen lower than the form (800 x 600), the form scrolls; OK stays on it."""
    dialog = make_dialog(Settings(path=tmp_path / "settings.json"))
    tall = dialog.minimumHeight()
    monkeypatch.setattr(preferences_dialog, "screen_height", lambda window: tall - 100)
    dialog._fit_height()
    dialog.adjustSize()
    assert dialog.minimumHeight() <= tall - 100
    assert dialog.height() <= tall - 100
    assert dialog._scroll.verticalScrollBar().maximum() > 0
    assert dialog.button_box.isVisible()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_dialog_fits_a_laptop_screen_unscrolled_in_either_language(
    make_dialog, qtbot, tmp_path, monkeypatch, qapp, language
):
    """1366 x 768 less a panel: the dialog was 780 pixels high in German, 715 in
    English, and scrolled in both."""
    room = 768 - 28
    monkeypatch.setattr(preferences_dialog, "screen_height", lambda window: room)
    i18n.install_translators(qapp, language)
    try:
        dialog = make_dialog(Settings(path=tmp_path / "settings.json"))
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog._fit_height()
        dialog.adjustSize()
    finally:
        i18n.remove_translators()
        QLocale.setDefault(QLocale.system())
    assert dialog._scroll.verticalScrollBar().maximum() == 0
    assert dialog.height() + preferences_dialog.SCREEN_FRAME <= room
    assert dialog.width() <= 800 - preferences_dialog.SCREEN_FRAME, "and an old screen's width"


def test_tab_goes_from_the_buttons_to_the_first_field_with_no_empty_stop(make_dialog, saved, qtbot):
    """The scroll area around the fields took the focus itself: a Tab stop showing
    nothing between Cancel and the server address."""
    dialog = make_dialog(saved)
    dialog.activateWindow()
    dialog.server_edit.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.server_edit)
    stops: list[QWidget | None] = []
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is dialog.server_edit:
            break
        stops.append(QApplication.focusWidget())
    assert dialog._scroll not in stops
    assert stops[-1] in dialog.button_box.buttons(), "then straight to the first field"
