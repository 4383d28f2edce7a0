<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>ApiErrors</name>
    <message>
        <location filename="../cardviewer/api/address.py" line="+56"/>
        <source>“%1” is not a web address. A server&apos;s address looks like https://cards.example.com.</source>
        <translation>„%1“ ist keine Webadresse. Die Adresse eines Servers sieht so aus: https://cards.example.com.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Please enter the server address.</source>
        <translation>Bitte geben Sie die Serveradresse ein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server address must not contain a user name or password. Remove the part before “@”.</source>
        <translation>Die Serveradresse darf keinen Benutzernamen und kein Passwort enthalten. Entfernen Sie den Teil vor „@“.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>“%1” is not a web address (it should start with https://).</source>
        <translation>„%1“ ist keine Webadresse (sie sollte mit https:// beginnen).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The address %1 is not encrypted (http://). Use https:// so that your password and sign-in token cannot be read on the network.</source>
        <translation>Die Adresse %1 ist nicht verschlüsselt (http://). Verwenden Sie https://, damit Ihr Passwort und Ihr Anmelde-Token im Netzwerk nicht mitgelesen werden können.</translation>
    </message>
    <message>
        <location filename="../cardviewer/api/client.py" line="+183"/>
        <source>Please enter your e-mail address.</source>
        <translation>Bitte geben Sie Ihre E-Mail-Adresse ein.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Please enter your password.</source>
        <translation>Bitte geben Sie Ihr Passwort ein.</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Please enter the id of a space.</source>
        <translation>Bitte geben Sie die ID eines Bereichs ein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>There is no page %1; pages start at 1.</source>
        <translation>Es gibt keine Seite %1; die Seiten beginnen bei 1.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Please sign in first.</source>
        <translation>Bitte melden Sie sich zuerst an.</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>The e-mail address or password is not correct.</source>
        <translation>Die E-Mail-Adresse oder das Passwort ist nicht richtig.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server could not read the sign-in request: a required field did not arrive. Check the server address; if it is right, please tell your administrator.</source>
        <translation>Der Server konnte die Anmeldeanfrage nicht lesen: Ein erforderliches Feld ist nicht angekommen. Prüfen Sie die Serveradresse; wenn sie stimmt, wenden Sie sich bitte an Ihre Administration.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Your sign-in has expired or was ended. Please sign in again.</source>
        <translation>Ihre Anmeldung ist abgelaufen oder wurde beendet. Bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>This space was not found, or your account has no access to it. Check the space id.</source>
        <translation>Dieser Bereich wurde nicht gefunden, oder Ihr Konto hat keinen Zugriff darauf. Prüfen Sie die ID des Bereichs.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server is busy with too many requests. Please wait a moment.</source>
        <translation>Der Server ist mit zu vielen Anfragen ausgelastet. Bitte warten Sie einen Moment.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The server ran into a problem and could not answer (“%1”). Please try again later.</source>
        <translation>Auf dem Server ist ein Problem aufgetreten, er konnte nicht antworten („%1“). Bitte versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The server is unavailable right now (error %1). Please try again later.</source>
        <translation>Der Server ist gerade nicht erreichbar (Fehler %1). Bitte versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server answered with an unexpected error (HTTP %1).</source>
        <translation>Der Server hat mit einem unerwarteten Fehler geantwortet (HTTP %1).</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>The server sent an unexpectedly large answer.</source>
        <translation>Der Server hat eine unerwartet große Antwort gesendet.</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>The server sent a reply that is not readable data. It may be busy or misconfigured; please try again later.</source>
        <translation>Der Server hat eine Antwort gesendet, die keine lesbaren Daten enthält. Er ist vielleicht ausgelastet oder falsch eingerichtet; bitte versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The server&apos;s reply does not look like the card platform&apos;s. Check the server address.</source>
        <translation>Die Antwort des Servers sieht nicht wie die der Kartenplattform aus. Prüfen Sie die Serveradresse.</translation>
    </message>
    <message>
        <location filename="../cardviewer/api/models.py" line="+495"/>
        <source>The server sent page %1 when page %2 was asked for.</source>
        <translation>Der Server hat Seite %1 gesendet, obwohl Seite %2 angefordert wurde.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server reports more cards in this space than can be listed.</source>
        <translation>Der Server meldet in diesem Bereich mehr Karten, als aufgelistet werden können.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The server&apos;s numbers of pages and cards do not add up.</source>
        <translation>Die Seiten- und Kartenzahlen des Servers passen nicht zusammen.</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The space changed while its cards were fetched: cards were added or removed, so some could be missing. Try again.</source>
        <translation>Der Bereich hat sich geändert, während seine Karten abgerufen wurden: Karten kamen hinzu oder wurden entfernt, daher könnten einige fehlen. Versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The server sent more cards than it says the space has.</source>
        <translation>Der Server hat mehr Karten gesendet, als der Bereich laut seinen Angaben enthält.</translation>
    </message>
    <message>
        <location filename="../cardviewer/api/errors.py" line="+213"/>
        <source>The server at %1 does not accept secure (https) connections at this address. Check the server address and its port number.</source>
        <translation>Der Server %1 nimmt unter dieser Adresse keine sicheren Verbindungen (https) an. Prüfen Sie die Serveradresse und ihre Portnummer.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The server at %1 did not answer in time. Please try again.</source>
        <translation>Der Server %1 hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>A secure connection to %1 could not be established. Its certificate is not trusted by this computer.</source>
        <translation>Zu %1 konnte keine sichere Verbindung hergestellt werden. Sein Zertifikat wird von diesem Computer nicht als vertrauenswürdig eingestuft.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cannot reach the server at %1. Check the server address and your network connection.</source>
        <translation>Der Server %1 ist nicht erreichbar. Prüfen Sie die Serveradresse und Ihre Netzwerkverbindung.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The proxy server would not connect to %1. Check the proxy settings (HTTPS_PROXY, HTTP_PROXY) or ask your administrator.</source>
        <translation>Der Proxyserver hat keine Verbindung zu %1 aufgebaut. Prüfen Sie die Proxy-Einstellungen (HTTPS_PROXY, HTTP_PROXY) oder fragen Sie Ihre Administration.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server address %1 is not valid.</source>
        <translation>Die Serveradresse %1 ist ungültig.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The secure connection to %1 failed.</source>
        <translation>Die sichere Verbindung zu %1 ist fehlgeschlagen.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection to %1 was interrupted. Please try again.</source>
        <translation>Die Verbindung zu %1 wurde unterbrochen. Bitte versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location filename="../cardviewer/services/page_patience.py" line="+51"/>
        <source>The server stopped answering and was not back within a minute. Try again later.</source>
        <translation>Der Server antwortete nicht mehr und war auch nach einer Minute nicht wieder erreichbar. Versuchen Sie es später erneut.</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../cardviewer/error_reporter.py" line="+65"/>
        <source>Unexpected error</source>
        <translation>Unerwarteter Fehler</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong that CardViewer did not expect. You can keep working; if the problem stays, restart the app.</source>
        <translation>Etwas Unerwartetes ist schiefgegangen. Sie können weiterarbeiten; wenn das Problem bleibt, starten Sie CardViewer neu.</translation>
    </message>
    <message>
        <location filename="../cardviewer/controller.py" line="+200"/>
        <source>Your session has expired; please sign in again.</source>
        <translation>Ihre Sitzung ist abgelaufen; bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <location filename="../cardviewer/sign_in.py" line="+104"/>
        <source>The server is set by your administrator for this computer.</source>
        <translation>Der Server ist von Ihrer Administration für diesen Computer festgelegt.</translation>
    </message>
    <message>
        <location filename="../cardviewer/controller.py" line="+180"/>
        <source>Your sign-in has expired. Please sign in again.</source>
        <translation>Ihre Anmeldung ist abgelaufen. Bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Your session has ended; please sign in again.</source>
        <translation>Ihre Sitzung wurde beendet; bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Signing out…</source>
        <translation>Abmeldung läuft…</translation>
    </message>
</context>
<context>
    <name>CardColumns</name>
    <message>
        <location filename="../cardviewer/ui/cards/columns.py" line="+87"/>
        <source>(invalid)</source>
        <translation>(ungültig)</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/value_text.py" line="+78"/>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/columns.py" line="-41"/>
        <source>ID</source>
        <comment>a card&apos;s id</comment>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Avatar</source>
        <translation>Profilbild</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Username</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public</source>
        <translation>Öffentlich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected cards</source>
        <translation>Verbundene Karten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connects</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subscriptions</source>
        <translation>Abonnements</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Redirection</source>
        <translation>Weiterleitung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Is business</source>
        <translation>Geschäftlich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Space</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Theme</source>
        <translation>Design</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Avatar URL</source>
        <translation>Profilbild-URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <comment>a flag&apos;s value in a CSV file</comment>
        <translation>ja</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <comment>a flag&apos;s value in a CSV file</comment>
        <translation>nein</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>The server sent an invalid value: %1</source>
        <translation>Der Server hat einen ungültigen Wert gesendet: %1</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>E-mails</source>
        <translation>E-Mails</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/card_table_model.py" line="+68"/>
        <source>%1 has no picture</source>
        <translation>%1 hat kein Profilbild</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No picture</source>
        <translation>Kein Profilbild</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Picture of %1</source>
        <translation>Profilbild von %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Picture</source>
        <translation>Profilbild</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not set</source>
        <comment>a field without a value</comment>
        <translation>Nicht angegeben</translation>
    </message>
</context>
<context>
    <name>CardDetailsPane</name>
    <message>
        <location filename="../cardviewer/ui/cards/card_details.py" line="+244"/>
        <source>Select a card to see its details.</source>
        <translation>Wählen Sie eine Karte aus, um ihre Details zu sehen.</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Picture</source>
        <translation>Profilbild</translation>
    </message>
    <message>
        <location line="+150"/>
        <source>Removed by the last sync</source>
        <translation>Entfernt bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location line="-95"/>
        <source>Card details</source>
        <translation>Kartendetails</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy Username</source>
        <translation>Benutzernamen kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy E-mails</source>
        <translation>E-Mails kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy as JSON</source>
        <translation>Als JSON kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All of the card&apos;s data, as the server sent it</source>
        <translation>Alle Daten der Karte, so wie der Server sie gesendet hat</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Save QR Code</source>
        <translation>QR-Code speichern</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>(no name)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Added by the last sync</source>
        <translation>Hinzugefügt bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/detail_row.py" line="+181"/>
        <source>(invalid)</source>
        <translation>(ungültig)</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/card_details.py" line="+108"/>
        <source>This card has no handle.</source>
        <translation>Diese Karte hat keinen Benutzernamen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Turn on “Include e-mails” to load the cards&apos; e-mail addresses.</source>
        <translation>Schalten Sie „E-Mails laden“ ein, um die E-Mail-Adressen der Karten zu laden.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This card has no e-mail addresses.</source>
        <translation>Diese Karte hat keine E-Mail-Adressen.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copied the username</source>
        <translation>Benutzername kopiert</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copied the e-mail address</source>
        <translation>E-Mail-Adresse kopiert</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Copied %n e-mail addresses</source>
        <translation>
            <numerusform>%n E-Mail-Adresse kopiert</numerusform>
            <numerusform>%n E-Mail-Adressen kopiert</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copied the card as JSON</source>
        <translation>Karte als JSON kopiert</translation>
    </message>
</context>
<context>
    <name>CardQrCode</name>
    <message>
        <location filename="../cardviewer/ui/cards/card_qr_code.py" line="+205"/>
        <location line="+73"/>
        <source>This card&apos;s contact is too long for a QR code.</source>
        <translation>Die Kontaktdaten dieser Karte sind zu umfangreich für einen QR-Code.</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Copy QR Code</source>
        <translation>QR-Code kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The code as a picture, for a document or an e-mail</source>
        <translation>Der Code als Bild, für ein Dokument oder eine E-Mail</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save QR Code…</source>
        <translation>QR-Code speichern…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>As a PNG picture, or as SVG to print at any size</source>
        <translation>Als PNG-Bild oder als SVG für den Druck in jeder Größe</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>QR code of the contact %1</source>
        <translation>QR-Code des Kontakts %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A phone&apos;s camera reads this code and offers to save the contact.</source>
        <translation>Die Kamera eines Telefons liest diesen Code und bietet an, den Kontakt zu speichern.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>No QR code could be made for this card.</source>
        <translation>Für diese Karte ließ sich kein QR-Code erstellen.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copied the QR code.</source>
        <translation>QR-Code kopiert.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The QR code could not be saved as %1. %2</source>
        <translation>Der QR-Code konnte nicht als %1 gespeichert werden. %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Saved the QR code to %1</source>
        <translation>QR-Code unter %1 gespeichert</translation>
    </message>
</context>
<context>
    <name>CardTableModel</name>
    <message>
        <location filename="../cardviewer/ui/cards/card_pages.py" line="+34"/>
        <source>Please sign in first.</source>
        <translation>Bitte melden Sie sich zuerst an.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong while loading the page. Please try again.</source>
        <translation>Beim Laden der Seite ist etwas schiefgegangen. Bitte versuchen Sie es erneut.</translation>
    </message>
</context>
<context>
    <name>ChangeMarks</name>
    <message>
        <location filename="../cardviewer/ui/cards/change_marks.py" line="+56"/>
        <source>Before the last sync: %1</source>
        <translation>Vor der letzten Synchronisierung: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Before: %1</source>
        <translation>Vorher: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no picture</source>
        <translation>kein Profilbild</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a picture</source>
        <translation>ein Profilbild</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another picture</source>
        <translation>ein anderes Profilbild</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>empty</source>
        <comment>a field without a value</comment>
        <translation>leer</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Changed by the last sync</source>
        <translation>Geändert bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changed by the last sync: %1</source>
        <translation>Geändert bei der letzten Synchronisierung: %1</translation>
    </message>
</context>
<context>
    <name>Counts</name>
    <message numerus="yes">
        <location filename="../cardviewer/ui/cards/value_text.py" line="-26"/>
        <source>%n items</source>
        <translation>
            <numerusform>%n Eintrag</numerusform>
            <numerusform>%n Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n subscriptions</source>
        <translation>
            <numerusform>%n Abonnement</numerusform>
            <numerusform>%n Abonnements</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weiterer</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ErrorBar</name>
    <message>
        <location filename="../cardviewer/ui/error_bar.py" line="+79"/>
        <source>Retry</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
</context>
<context>
    <name>ExportAllDialog</name>
    <message>
        <location filename="../cardviewer/ui/export_all_dialog.py" line="+81"/>
        <source>Export All Pages</source>
        <translation>Alle Seiten exportieren</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Sync Space</source>
        <translation>Bereich synchronisieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Syncing all cards of %1</source>
        <translation>Alle Karten von %1 werden synchronisiert</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exporting all cards of %1</source>
        <translation>Alle Karten von %1 werden exportiert</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>To %1</source>
        <translation>Nach %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+22"/>
        <source>Fetching the first page…</source>
        <translation>Die erste Seite wird abgerufen…</translation>
    </message>
    <message numerus="yes">
        <location line="+15"/>
        <source>The server has not answered for %n s; still waiting…</source>
        <translation>
            <numerusform>Der Server antwortet seit %n s nicht; es wird weiter gewartet…</numerusform>
            <numerusform>Der Server antwortet seit %n s nicht; es wird weiter gewartet…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>The server asked to wait; trying again in %n s.</source>
        <translation>
            <numerusform>Der Server bat zu warten; neuer Versuch in %n s.</numerusform>
            <numerusform>Der Server bat zu warten; neuer Versuch in %n s.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server asked to wait; trying again…</source>
        <translation>Der Server bat zu warten; neuer Versuch…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>The server is not responding; trying again in %n s.</source>
        <translation>
            <numerusform>Der Server antwortet nicht; neuer Versuch in %n s.</numerusform>
            <numerusform>Der Server antwortet nicht; neuer Versuch in %n s.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server is not responding; trying again…</source>
        <translation>Der Server antwortet nicht; neuer Versuch…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Page %1 of %2 · 1 card</source>
        <translation>Seite %1 von %2 · 1 Karte</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Page %1 of %2 · %Ln cards</source>
        <translation>
            <numerusform>Seite %1 von %2 · %Ln Karte</numerusform>
            <numerusform>Seite %1 von %2 · %Ln Karten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-25"/>
        <source>about %n s left</source>
        <translation>
            <numerusform>noch etwa %n s</numerusform>
            <numerusform>noch etwa %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>about %n min left</source>
        <translation>
            <numerusform>noch etwa %n min</numerusform>
            <numerusform>noch etwa %n min</numerusform>
        </translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Finishing the local copy…</source>
        <translation>Lokale Kopie wird fertiggestellt…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Writing 1 card…</source>
        <translation>1 Karte wird geschrieben…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Writing %Ln cards…</source>
        <translation>
            <numerusform>%Ln Karte wird geschrieben…</numerusform>
            <numerusform>%Ln Karten werden geschrieben…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FilterRow</name>
    <message>
        <location filename="../cardviewer/ui/filter_row.py" line="+302"/>
        <source>1 card</source>
        <translation>1 Karte</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln cards</source>
        <translation>
            <numerusform>%Ln Karte</numerusform>
            <numerusform>%Ln Karten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Languages</name>
    <message>
        <location filename="../cardviewer/i18n.py" line="+75"/>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
</context>
<context>
    <name>LoginDialog</name>
    <message>
        <location filename="../cardviewer/ui/login/login_dialog.py" line="+83"/>
        <location line="+82"/>
        <source>Sign in to %1</source>
        <translation>Bei %1 anmelden</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>https://cards.example.com</source>
        <translation>https://cards.example.com</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your password is never stored.</source>
        <translation>Ihr Passwort wird nie gespeichert.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keep me signed in</source>
        <translation>Angemeldet &amp;bleiben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remember the sign-in on this computer until it expires. Your password is never stored.</source>
        <translation>Die Anmeldung bis zu ihrem Ablauf auf diesem Computer speichern. Ihr Passwort wird nie gespeichert.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Signing in…</source>
        <translation>Anmeldung läuft…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Sign In</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 logo</source>
        <translation>%1-Logo</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Use the account of your card platform.</source>
        <translation>Verwenden Sie das Konto Ihrer Kartenplattform.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Server:</source>
        <translation>&amp;Server:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;E-mail:</source>
        <translation>&amp;E-Mail:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>The e-mail address or password is not correct.</source>
        <translation>Die E-Mail-Adresse oder das Passwort ist nicht richtig.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Something went wrong while signing in. Please try again.</source>
        <translation>Bei der Anmeldung ist etwas schiefgegangen. Bitte versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The server said: %1</source>
        <translation>Antwort des Servers: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Sign-in cancelled.</source>
        <translation>Anmeldung abgebrochen.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../cardviewer/ui/window_commands.py" line="+229"/>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open the space whose id is entered</source>
        <translation>Den Bereich mit der eingegebenen ID öffnen</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Open &amp;Space…</source>
        <translation>Bereich ö&amp;ffnen…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Type the id of a space and press Enter</source>
        <translation>Geben Sie die ID eines Bereichs ein und drücken Sie die Eingabetaste</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Load the page again (F5)</source>
        <translation>Die Seite neu laden (F5)</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/whole_space_view.py" line="+614"/>
        <location filename="../cardviewer/ui/window_commands.py" line="+31"/>
        <source>&amp;Export Page…</source>
        <translation>Seite e&amp;xportieren…</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/window_commands.py" line="+7"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export &amp;All Pages…</source>
        <translation>&amp;Alle Seiten exportieren…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save every card of the space as a CSV or Excel file (Ctrl+Shift+E)</source>
        <translation>Alle Karten des Bereichs als CSV- oder Excel-Datei speichern (Strg+Umschalt+E)</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Sign &amp;Out</source>
        <translation>Ab&amp;melden</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Sign &amp;In…</source>
        <translation>A&amp;nmelden…</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>P&amp;rint…</source>
        <translation>&amp;Drucken…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Sign in again to load cards from the server</source>
        <translation>Erneut anmelden, um Karten vom Server zu laden</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>S&amp;ync Space</source>
        <translation>Bereich &amp;synchronisieren</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>&amp;First Page</source>
        <translation>&amp;Erste Seite</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Previous Page</source>
        <translation>&amp;Vorherige Seite</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Next Page</source>
        <translation>&amp;Nächste Seite</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Last Page</source>
        <translation>&amp;Letzte Seite</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Go to Page…</source>
        <translation>&amp;Gehe zu Seite…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Type a page number and press Enter</source>
        <translation>Geben Sie eine Seitenzahl ein und drücken Sie die Eingabetaste</translation>
    </message>
    <message>
        <location line="-145"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+163"/>
        <source>&amp;About %1</source>
        <translation>Ü&amp;ber %1</translation>
    </message>
    <message>
        <location line="-152"/>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy the selected cards for a spreadsheet</source>
        <translation>Die ausgewählten Karten für eine Tabellenkalkulation kopieren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Filter…</source>
        <translation>&amp;Filtern…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show only the cards that match what you type</source>
        <translation>Nur die Karten zeigen, die zu Ihrer Eingabe passen</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>&amp;Stop Loading</source>
        <translation>Laden a&amp;bbrechen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stop</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop loading the page; the page shown stays (Esc)</source>
        <translation>Laden der Seite abbrechen; die angezeigte Seite bleibt (Esc)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Export as &amp;vCards…</source>
        <translation>Als &amp;vCards exportieren…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save the selected cards, or every card shown, as vCards that Outlook and phones import (Ctrl+Shift+K)</source>
        <translation>Die ausgewählten Karten oder alle angezeigten als vCards speichern, die Outlook und Telefone importieren (Strg+Umschalt+K)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Export as P&amp;DF…</source>
        <translation>Als &amp;PDF exportieren…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save the selected cards, or every card shown, as a phone list to print (Ctrl+Shift+P)</source>
        <translation>Die ausgewählten oder alle angezeigten Karten als Telefonliste zum Drucken speichern (Strg+Umschalt+P)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Print the selected cards, or every card shown, as a phone list</source>
        <translation>Die ausgewählten oder alle angezeigten Karten als Telefonliste drucken</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Sync Space</source>
        <translation>Bereich synchronisieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy every card of the space to this computer: sort and filter them all, see what changed since the last sync, and open them offline</source>
        <translation>Alle Karten des Bereichs auf diesen Computer kopieren: alle sortieren und filtern, sehen, was sich seit der letzten Synchronisierung geändert hat, und sie offline öffnen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Details Pane</source>
        <translation>&amp;Detailansicht</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show the selected card at a readable size</source>
        <translation>Die ausgewählte Karte gut lesbar anzeigen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Overview…</source>
        <translation>&amp;Übersicht…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The space at a glance: totals, cards created per month, the most connected cards (Ctrl+Shift+O)</source>
        <translation>Der Bereich auf einen Blick: Summen, neue Karten je Monat, die am meisten verbundenen Karten (Strg+Umschalt+O)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Sor&amp;t by Column</source>
        <translation>Nach Spal&amp;te sortieren</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sort by the column of the current cell; again: the other way round, then in the space&apos;s own order</source>
        <translation>Nach der Spalte der aktuellen Zelle sortieren; erneut: umgekehrt, dann in der Reihenfolge des Bereichs</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Columns…</source>
        <translation>Spa&amp;lten…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show or hide columns</source>
        <translation>Spalten ein- oder ausblenden</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset &amp;View</source>
        <translation>Ansicht &amp;zurücksetzen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show every column in its first order and width, and the window at its size</source>
        <translation>Alle Spalten in ursprünglicher Reihenfolge und Breite und das Fenster in seiner ursprünglichen Größe zeigen</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Open &amp;Log Folder</source>
        <translation>&amp;Protokollordner öffnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the folder with the log file, to attach it to a problem report</source>
        <translation>Den Ordner mit der Protokolldatei zeigen, um sie einer Fehlermeldung beizufügen</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/space_toolbar.py" line="+27"/>
        <source>Space</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>S&amp;pace:</source>
        <translation>Be&amp;reich:</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/space_field.py" line="+29"/>
        <source>The id of the space whose cards to show</source>
        <translation>Die ID des Bereichs, dessen Karten angezeigt werden sollen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Space id</source>
        <translation>Bereichs-ID</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Clear the space id</source>
        <translation>Bereichs-ID leeren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Empties the field, to type another id</source>
        <translation>Leert das Feld, um eine andere ID einzugeben</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/space_toolbar.py" line="+6"/>
        <source>Include e-&amp;mails</source>
        <translation>E-&amp;Mails laden</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Also load the cards&apos; e-mail addresses (shown as an extra column)</source>
        <translation>Auch die E-Mail-Adressen der Karten laden (als zusätzliche Spalte)</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/window_commands.py" line="+21"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Go</source>
        <translation>&amp;Gehe zu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/cards/card_table_view.py" line="+73"/>
        <source>Cards</source>
        <translation>Karten</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/page_messages.py" line="+50"/>
        <source>No space open</source>
        <translation>Kein Bereich geöffnet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enter a space id and press Open.</source>
        <translation>Geben Sie eine Bereichs-ID ein und klicken Sie auf „Öffnen“.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/filter_row.py" line="-180"/>
        <source>Filter all cards of the space (Ctrl+F)</source>
        <translation>Alle Karten des Bereichs filtern (Strg+F)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Filter the cards of this page (Ctrl+F)</source>
        <translation>Karten dieser Seite filtern (Strg+F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shows the cards whose name, username, position or e-mail contain every word typed. Filtering and sorting apply to the page loaded.</source>
        <translation>Zeigt die Karten, deren Name, Benutzername, Position oder E-Mail jedes eingegebene Wort enthält. Filtern und Sortieren gelten für die geladene Seite.</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Clear the filter</source>
        <translation>Filter leeren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shows every card again (Esc)</source>
        <translation>Zeigt wieder alle Karten (Esc)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Search</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Pages from the server, or every card of the space&apos;s local copy</source>
        <translation>Seiten vom Server oder alle Karten der lokalen Kopie des Bereichs</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Sorting…</source>
        <translation>Wird sortiert…</translation>
    </message>
    <message>
        <location line="-149"/>
        <source>Filter the cards shown (Ctrl+F)</source>
        <translation>Angezeigte Karten filtern (Strg+F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter the cards shown</source>
        <translation>Angezeigte Karten filtern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shows the cards whose name, username, position or e-mail contain every word typed, of those the last sync changed so.</source>
        <translation>Zeigt von den hier aufgeführten Karten der letzten Synchronisierung die, deren Name, Benutzername, Position oder E-Mail jedes eingegebene Wort enthält.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Filter all cards of the space</source>
        <translation>Alle Karten des Bereichs filtern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shows the cards whose name, username, position or e-mail contain every word typed. Filtering and sorting apply to every card of the space.</source>
        <translation>Zeigt die Karten, deren Name, Benutzername, Position oder E-Mail jedes eingegebene Wort enthält. Filtern und Sortieren gelten für alle Karten des Bereichs.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Filter the cards of this page</source>
        <translation>Karten dieser Seite filtern</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>%1 of %2 shown</source>
        <translation>%1 von %2 angezeigt</translation>
    </message>
    <message>
        <location line="-190"/>
        <source>No card shown matches “%1”</source>
        <translation>Keine der angezeigten Karten passt zu „%1“</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear the filter (Esc) to see every one of these cards again.</source>
        <translation>Leeren Sie den Filter (Esc), um wieder alle diese Karten zu sehen.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No card of the space matches “%1”</source>
        <translation>Keine Karte des Bereichs passt zu „%1“</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear the filter (Esc) to see every card of the space again.</source>
        <translation>Leeren Sie den Filter (Esc), um wieder alle Karten des Bereichs zu sehen.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No card on this page matches “%1”</source>
        <translation>Keine Karte auf dieser Seite passt zu „%1“</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear the filter (Esc) to see every card of this page again.</source>
        <translation>Leeren Sie den Filter (Esc), um wieder alle Karten dieser Seite zu sehen.</translation>
    </message>
    <message>
        <location line="+219"/>
        <source>Clear Filter</source>
        <translation>Filter leeren</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/session_state.py" line="+52"/>
        <source>%1 on %2</source>
        <translation>%1 bei %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed out (%1)</source>
        <translation>Abgemeldet (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Signed out</source>
        <translation>Abgemeldet</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Signed out: sign in to open other pages and spaces.</source>
        <translation>Abgemeldet: Für andere Seiten und Bereiche bitte anmelden.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>You are signed out because your session has ended. The cards shown stay here; sign in to load more.</source>
        <translation>Sie wurden abgemeldet, weil Ihre Sitzung beendet ist. Die angezeigten Karten bleiben sichtbar; melden Sie sich an, um weitere zu laden.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>You are signed out because your session has ended; sign in to load cards.</source>
        <translation>Sie wurden abgemeldet, weil Ihre Sitzung beendet ist; melden Sie sich an, um Karten zu laden.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/main_window.py" line="+350"/>
        <source>Enter the id of a space first.</source>
        <translation>Geben Sie zuerst die ID eines Bereichs ein.</translation>
    </message>
    <message numerus="yes">
        <location line="+130"/>
        <source>Synced %Ln cards. %1</source>
        <translation>
            <numerusform>%Ln Karte synchronisiert. %1</numerusform>
            <numerusform>%Ln Karten synchronisiert. %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/export_commands.py" line="+106"/>
        <location line="+14"/>
        <location line="+192"/>
        <source>There are no cards to export.</source>
        <translation>Es gibt keine Karten zum Exportieren.</translation>
    </message>
    <message>
        <location line="-187"/>
        <source>Export Cards Shown</source>
        <translation>Angezeigte Karten exportieren</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Export as vCards</source>
        <translation>Als vCards exportieren</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Export as PDF</source>
        <translation>Als PDF exportieren</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Waiting for the cards shown to be sorted; then this goes on.</source>
        <translation>Warten, bis die angezeigten Karten sortiert sind; dann geht es weiter.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The whole space is no longer shown, so what waited for its sort was called off.</source>
        <translation>Der ganze Bereich wird nicht mehr angezeigt; was auf seine Sortierung wartete, wurde abgebrochen.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Save QR Code</source>
        <translation>QR-Code speichern</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/whole_space_jobs.py" line="+839"/>
        <source>The page could not be saved as %1. %2</source>
        <translation>Die Seite konnte nicht als %1 gespeichert werden. %2</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/job_reports.py" line="+32"/>
        <source>This is the first sync.</source>
        <translation>Erste Synchronisierung.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing changed since the last sync.</source>
        <translation>Nichts hat sich geändert.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Since the last sync: %1 added, %2 removed, %3 changed.</source>
        <translation>Neu: %1, entfernt: %2, geändert: %3.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>E-mail addresses left out: Include e-mails was off.</source>
        <translation>E-Mail-Adressen weggelassen: „E-Mails laden“ war aus.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>E-mail addresses added; no card counts as changed for them.</source>
        <translation>E-Mail-Adressen neu dabei; keine Karte gilt dadurch als geändert.</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Synced 1 card. %1</source>
        <translation>1 Karte synchronisiert. %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Space %1: %2</source>
        <translation>Bereich %1: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The phone list went to the printer.</source>
        <translation>Die Telefonliste wurde an den Drucker gesendet.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Exported 1 card to %1</source>
        <translation>1 Karte nach %1 exportiert</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>1 entry the server sent was not a card and was left out.</source>
        <translation>1 Eintrag, den der Server sandte, war keine Karte und wurde weggelassen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 entries the server sent were not cards and were left out.</source>
        <translation>%1 Einträge, die der Server sandte, waren keine Karten und wurden weggelassen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Some of the cards counted as removed may be among them.</source>
        <translation>Einige der als entfernt gezählten Karten können darunter sein.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/export_commands.py" line="+43"/>
        <source>Open a space first.</source>
        <translation>Öffnen Sie zuerst einen Bereich.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/error_text.py" line="+57"/>
        <source>The disk is full; the local copy stays as it was.</source>
        <translation>Der Datenträger ist voll; die lokale Kopie bleibt unverändert.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The local copy was written by a newer version of CardViewer and is left as it is; update CardViewer to use it.</source>
        <translation>Die lokale Kopie stammt von einer neueren Version von CardViewer und bleibt unverändert; aktualisieren Sie CardViewer, um sie zu verwenden.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The local copy shown was replaced by newer syncs meanwhile; try again.</source>
        <translation>Die lokale Kopie wurde inzwischen durch neuere Synchronisierungen ersetzt; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The local copy is in use by another program; try again.</source>
        <translation>Die lokale Kopie wird von einem anderen Programm verwendet; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The local copy is gone from this computer; Sync Space makes a new one.</source>
        <translation>Die lokale Kopie ist nicht mehr auf diesem Computer; „Bereich synchronisieren“ legt eine neue an.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Another program synced this space meanwhile; its copy is kept.</source>
        <translation>Die lokale Kopie wurde inzwischen von einem anderen Programm synchronisiert; dessen Kopie bleibt erhalten.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The local copy is damaged; it is set aside, and the next sync makes a new one.</source>
        <translation>Die lokale Kopie ist beschädigt; sie wird beiseitegelegt, und die nächste Synchronisierung legt eine neue an.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The local copy may not be changed: its file, or the folder it is in, is read-only for you. It stays as it was.</source>
        <translation>Die lokale Kopie kann nicht geändert werden: Die Datei der Kopie oder der Ordner, in dem sie liegt, ist für Sie schreibgeschützt. Sie bleibt, wie sie war.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The local copy could not be read; it is left as it is.</source>
        <translation>Die lokale Kopie konnte nicht gelesen werden; sie bleibt unverändert.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The local copy could not be written; it stays as it was.</source>
        <translation>Die lokale Kopie konnte nicht geschrieben werden; sie bleibt unverändert.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The disk is full; no local copy was made.</source>
        <translation>Der Datenträger ist voll; es wurde keine lokale Kopie angelegt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The local copy may not be made: its file, or the folder it is in, is read-only for you.</source>
        <translation>Die lokale Kopie kann nicht angelegt werden: Die Datei der Kopie oder der Ordner, in dem sie liegt, ist für Sie schreibgeschützt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The local copy could not be written; none was made.</source>
        <translation>Die lokale Kopie konnte nicht geschrieben werden; es wurde keine angelegt.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A file is where a folder should be; move it away.</source>
        <translation>Wo ein Ordner sein sollte, liegt eine Datei; verschieben Sie sie.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>You are not allowed to write there.</source>
        <translation>Sie dürfen dort nicht schreiben.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The disk is read-only.</source>
        <translation>Der Datenträger ist schreibgeschützt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The folder does not exist (any more).</source>
        <translation>Der Ordner existiert nicht (mehr).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A folder is where a file should be; move it away.</source>
        <translation>Wo eine Datei sein sollte, liegt ein Ordner; verschieben Sie ihn.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The system says: %1.</source>
        <translation>Das System meldet: %1.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The file is read-only; choose another name.</source>
        <translation>Die Datei ist schreibgeschützt; wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+39"/>
        <source>The disk of the temporary folder is full; make room there.</source>
        <translation>Der Datenträger des temporären Ordners ist voll; schaffen Sie dort Platz.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/whole_space_jobs.py" line="-73"/>
        <source>%1 could not be synced. %2</source>
        <translation>%1 konnte nicht synchronisiert werden. %2</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/export_commands.py" line="-28"/>
        <source>Export All Pages</source>
        <translation>Alle Seiten exportieren</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/whole_space_jobs.py" line="-10"/>
        <source>The export of all pages stopped and saved nothing; it starts again once you have signed in.</source>
        <translation>Der Export aller Seiten wurde angehalten und hat nichts gespeichert; er beginnt von vorn, sobald Sie sich angemeldet haben.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The cards of %1 could not be exported. %2 Nothing was saved.</source>
        <translation>Die Karten von %1 konnten nicht exportiert werden. %2 Es wurde nichts gespeichert.</translation>
    </message>
    <message>
        <location line="+23"/>
        <location line="+51"/>
        <source>The cards could not be saved as %1. %2</source>
        <translation>Die Karten konnten nicht als %1 gespeichert werden. %2</translation>
    </message>
    <message>
        <location line="-384"/>
        <source>Saving %1…</source>
        <translation>%1 wird gespeichert…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Sending the phone list to the printer…</source>
        <translation>Die Telefonliste wird an den Drucker gesendet…</translation>
    </message>
    <message>
        <location line="+310"/>
        <source>The folder of its local copy, %1, could not be made. %2</source>
        <translation>Der Ordner seiner lokalen Kopie, %1, konnte nicht angelegt werden. %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Printing stopped; the pages already made still get printed.</source>
        <translation>Drucken abgebrochen; die bereits erstellten Seiten werden noch gedruckt.</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>The cards could not be printed. %1</source>
        <translation>Die Karten konnten nicht gedruckt werden. %1</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Saving stopped unexpectedly; try again.</source>
        <translation>Das Speichern brach unerwartet ab; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The printer did not take the pages; check that it is ready.</source>
        <translation>Der Drucker hat die Seiten nicht angenommen; prüfen Sie, ob er bereit ist.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Printing stopped unexpectedly; try again.</source>
        <translation>Das Drucken brach unerwartet ab; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="-356"/>
        <source>Copying %1 rows…</source>
        <translation>%1 Zeilen werden kopiert…</translation>
    </message>
    <message>
        <location line="+253"/>
        <source>The sync stopped and changed nothing; it starts again once you have signed in.</source>
        <translation>Die Synchronisierung wurde angehalten und hat nichts geändert; sie beginnt von vorn, sobald Sie sich angemeldet haben.</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Sync cancelled; no local copy was made.</source>
        <translation>Synchronisierung abgebrochen; es wurde keine lokale Kopie angelegt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sync cancelled; the local copy stays as it was.</source>
        <translation>Synchronisierung abgebrochen; die lokale Kopie bleibt unverändert.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Printing cancelled; nothing was printed.</source>
        <translation>Drucken abgebrochen; nichts wurde gedruckt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copying cancelled; the clipboard stays as it was.</source>
        <translation>Kopieren abgebrochen; die Zwischenablage bleibt, wie sie war.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export cancelled; nothing was saved.</source>
        <translation>Export abgebrochen; es wurde nichts gespeichert.</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The local copy has changed since they were selected; copy them again.</source>
        <translation>Die lokale Kopie hat sich geändert, seit sie ausgewählt wurden; kopieren Sie sie erneut.</translation>
    </message>
    <message>
        <location line="-351"/>
        <source>Copying stopped unexpectedly; try again.</source>
        <translation>Das Kopieren brach unerwartet ab; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <location line="+358"/>
        <source>The local copy could not be read; sync the space again to renew it.</source>
        <translation>Die lokale Kopie konnte nicht gelesen werden; synchronisieren Sie den Bereich erneut, um sie zu erneuern.</translation>
    </message>
    <message>
        <location line="-355"/>
        <source>The rows could not be copied. %1</source>
        <translation>Die Zeilen konnten nicht kopiert werden. %1</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/help_and_settings.py" line="+98"/>
        <source>Preferences saved.</source>
        <translation>Einstellungen gespeichert.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>The avatar cache is cleared.</source>
        <translation>Der Profilbild-Cache ist geleert.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/export_path.py" line="+21"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excel workbooks (*.xlsx)</source>
        <translation>Excel-Arbeitsmappen (*.xlsx)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vCards (*.vcf)</source>
        <translation>vCards (*.vcf)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>PNG pictures (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG pictures (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export Page</source>
        <translation>Seite exportieren</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/help_and_settings.py" line="+9"/>
        <source>Could not open the log folder %1</source>
        <translation>Der Protokollordner %1 konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>About %1</source>
        <translation>Über %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Browse and export the digital business cards of your company&apos;s space.</source>
        <translation>Die digitalen Visitenkarten im Bereich Ihres Unternehmens durchsuchen und exportieren.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Python %1, Qt %2</source>
        <translation>Python %1, Qt %2</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/page_messages.py" line="+111"/>
        <source>Loading page %1 of %2…</source>
        <translation>Seite %1 von %2 wird geladen…</translation>
    </message>
    <message>
        <location line="-87"/>
        <source>The cards appear as soon as they arrive.</source>
        <translation>Die Karten erscheinen, sobald sie eintreffen.</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>The space&apos;s cards could not be loaded. Choose the whole space above to browse its synced copy.</source>
        <translation>Die Karten des Bereichs konnten nicht geladen werden. Wählen Sie oben „Ganzer Bereich“, um seine lokale Kopie anzusehen.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The space&apos;s cards could not be loaded; the message above says why.</source>
        <translation>Die Karten des Bereichs konnten nicht geladen werden; die Meldung oben sagt, warum.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cards shown</source>
        <translation>Keine Karten angezeigt</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stop Loading</source>
        <translation>Laden abbrechen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Loading page %1…</source>
        <translation>Seite %1 wird geladen…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No cards</source>
        <translation>Keine Karten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This space has no cards yet.</source>
        <translation>Dieser Bereich hat noch keine Karten.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Nothing here</source>
        <translation>Hier ist nichts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There are no cards on this page.</source>
        <translation>Auf dieser Seite sind keine Karten.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the Last Page (%1)</source>
        <translation>Zur letzten Seite (%1)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 — %2</source>
        <comment>window title: space id, app name</comment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>1 entry on this page could not be read and is not shown.</source>
        <translation>1 Eintrag auf dieser Seite konnte nicht gelesen werden und wird nicht angezeigt.</translation>
    </message>
    <message numerus="yes">
        <location filename="../cardviewer/ui/main_window.py" line="-12"/>
        <source>%n entries on this page could not be read and are not shown.</source>
        <translation>
            <numerusform>%n Eintrag auf dieser Seite konnte nicht gelesen werden und wird nicht angezeigt.</numerusform>
            <numerusform>%n Einträge auf dieser Seite konnten nicht gelesen werden und werden nicht angezeigt.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/page_messages.py" line="+6"/>
        <source>Some details on this page could not be read; they are marked “(invalid)”.</source>
        <translation>Einige Angaben auf dieser Seite konnten nicht gelesen werden; sie sind mit „(ungültig)“ markiert.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Page %1 is still shown.</source>
        <translation>Seite %1 wird weiterhin angezeigt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The cards of %1 are still shown.</source>
        <translation>Die Karten von %1 werden weiterhin angezeigt.</translation>
    </message>
    <message numerus="yes">
        <location filename="../cardviewer/ui/main_window.py" line="+11"/>
        <source>Exported %Ln cards to %1</source>
        <translation>
            <numerusform>%Ln Karte nach %1 exportiert</numerusform>
            <numerusform>%Ln Karten nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-9"/>
        <source>You can try again in %n seconds.</source>
        <translation>
            <numerusform>Sie können es in %n Sekunde erneut versuchen.</numerusform>
            <numerusform>Sie können es in %n Sekunden erneut versuchen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/loading_state.py" line="+81"/>
        <source>Stopped loading page %1.</source>
        <translation>Laden der Seite %1 abgebrochen.</translation>
    </message>
    <message numerus="yes">
        <location filename="../cardviewer/ui/main_window.py" line="+2"/>
        <source>You can try again in about %n minutes.</source>
        <translation>
            <numerusform>Sie können es in etwa %n Minute erneut versuchen.</numerusform>
            <numerusform>Sie können es in etwa %n Minuten erneut versuchen.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/error_text.py" line="-22"/>
        <source>You are not allowed to write there; choose another folder.</source>
        <translation>Sie dürfen dort nicht schreiben; wählen Sie einen anderen Ordner.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folder does not exist (any more); choose another folder.</source>
        <translation>Den Ordner gibt es nicht (mehr); wählen Sie einen anderen Ordner.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A folder of that name is in the way; choose another name.</source>
        <translation>Dort gibt es bereits einen Ordner mit diesem Namen; wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+39"/>
        <source>The disk is full.</source>
        <translation>Der Datenträger ist voll.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The disk is read-only; choose another folder.</source>
        <translation>Der Datenträger ist schreibgeschützt; wählen Sie einen anderen Ordner.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/whole_space_view.py" line="-517"/>
        <source>Whole space (synced %1)</source>
        <translation>Ganzer Bereich (Stand %1)</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>No cards added in the last sync</source>
        <translation>Bei der letzten Synchronisierung kamen keine Karten hinzu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The last sync brought no new cards.</source>
        <translation>Die letzte Synchronisierung brachte keine neuen Karten.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cards added by the last sync: %1.</source>
        <translation>Bei der letzten Synchronisierung hinzugefügte Karten: %1.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No cards changed in the last sync</source>
        <translation>Bei der letzten Synchronisierung hat sich keine Karte geändert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cards changed by the last sync: %1.</source>
        <translation>Bei der letzten Synchronisierung geänderte Karten: %1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No cards removed in the last sync</source>
        <translation>Bei der letzten Synchronisierung wurden keine Karten entfernt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every card of the sync before is still in the space.</source>
        <translation>Jede Karte der Synchronisierung davor ist noch im Bereich.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cards removed by the last sync: %1, as the sync before had them.</source>
        <translation>Bei der letzten Synchronisierung entfernte Karten: %1, wie vorher.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Pages from the server</source>
        <translation>Seiten vom Server</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Added by the last sync</source>
        <translation>Hinzugefügt bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changed by the last sync</source>
        <translation>Geändert bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location line="+185"/>
        <source>Showing the whole space from its local copy, synced %1.</source>
        <translation>Der ganze Bereich wird aus seiner lokalen Kopie angezeigt, Stand %1.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Synced again meanwhile, at %1.</source>
        <translation>Inzwischen neu synchronisiert, Stand %1.</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Some synced spaces could not be removed from this computer; the log says which, and why.</source>
        <translation>Einige synchronisierte Bereiche konnten nicht von diesem Computer entfernt werden; das Protokoll sagt, welche und warum.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Removed the synced space from this computer.</source>
        <translation>Der synchronisierte Bereich wurde von diesem Computer entfernt.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Removed %1 synced spaces from this computer.</source>
        <translation>%1 synchronisierte Bereiche wurden von diesem Computer entfernt.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No synced space was left on this computer to remove.</source>
        <translation>Auf diesem Computer war kein synchronisierter Bereich mehr zu entfernen.</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>Save the cards shown, in their order, as a CSV or Excel file (Ctrl+E)</source>
        <translation>Die angezeigten Karten in ihrer Reihenfolge als CSV- oder Excel-Datei speichern (Strg+E)</translation>
    </message>
    <message>
        <location line="+6"/>
        <location filename="../cardviewer/ui/window_commands.py" line="-268"/>
        <source>Save the cards of this page as a CSV or Excel file (Ctrl+E)</source>
        <translation>Die Karten dieser Seite als CSV- oder Excel-Datei speichern (Strg+E)</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>The local copy could not be read, so the cards shown may be incomplete or not in the order asked for. Sync Space makes a new copy.</source>
        <translation>Die lokale Kopie konnte nicht gelesen werden; die angezeigten Karten sind daher vielleicht unvollständig oder nicht wie gewünscht geordnet. „Bereich synchronisieren“ legt eine neue Kopie an.</translation>
    </message>
    <message>
        <location line="-468"/>
        <source>Removed by the last sync</source>
        <translation>Entfernt bei der letzten Synchronisierung</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Cards shown</source>
        <translation>Angezeigte Karten</translation>
    </message>
    <message>
        <location line="+439"/>
        <source>&amp;Export Cards Shown…</source>
        <translation>Angezeigte Karten e&amp;xportieren…</translation>
    </message>
    <message>
        <location line="-466"/>
        <source>Every card is as it was at the sync before.</source>
        <translation>Jede Karte ist so wie bei der Synchronisierung davor.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/state_page.py" line="+27"/>
        <source>%1 logo</source>
        <translation>%1-Logo</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/phone_list_output.py" line="+45"/>
        <source>Phone list of %1</source>
        <translation>Telefonliste von %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Page %1</source>
        <translation>Seite %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>+%1 more</source>
        <translation>+%1 weitere</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(no name)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <location line="+115"/>
        <source>Print Phone List</source>
        <translation>Telefonliste drucken</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/email_question.py" line="+29"/>
        <source>No E-mail Addresses</source>
        <translation>Keine E-Mail-Adressen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>These cards were loaded without their e-mail addresses.</source>
        <translation>Diese Karten wurden ohne ihre E-Mail-Adressen geladen.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Load them first? The page is loaded again with them, then saved.</source>
        <translation>Zuerst laden? Die Seite wird mit ihnen neu geladen und dann gespeichert.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The local copy has none. To have them, sync the space again with Include e-mails ticked.</source>
        <translation>Die lokale Kopie hat keine. Um sie zu erhalten, synchronisieren Sie den Bereich erneut mit Häkchen bei „E-Mails laden“.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Load E-mails</source>
        <translation>E-Mails laden</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Continue Without E-mails</source>
        <translation>Ohne E-Mails fortfahren</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/column_commands.py" line="+44"/>
        <source>Sorted in the space&apos;s own order.</source>
        <translation>In der Reihenfolge des Bereichs sortiert.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sorted by %1, ascending.</source>
        <translation>Nach %1 sortiert, aufsteigend.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sorted by %1, descending.</source>
        <translation>Nach %1 sortiert, absteigend.</translation>
    </message>
</context>
<context>
    <name>PageBar</name>
    <message>
        <location filename="../cardviewer/ui/page_bar.py" line="+48"/>
        <source>First page</source>
        <translation>Erste Seite</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous page</source>
        <translation>Vorherige Seite</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next page</source>
        <translation>Nächste Seite</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Last page</source>
        <translation>Letzte Seite</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Type a page number and press Enter</source>
        <translation>Geben Sie eine Seitenzahl ein und drücken Sie die Eingabetaste</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Page number</source>
        <translation>Seitenzahl</translation>
    </message>
    <message numerus="yes">
        <location line="+65"/>
        <source>of %Ln</source>
        <translation>
            <numerusform>von %Ln</numerusform>
            <numerusform>von %Ln</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Page %1 of %2. %3</source>
        <comment>the page shown, its last page, the summary</comment>
        <translation>Seite %1 von %2. %3</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No cards</source>
        <translation>Keine Karten</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>No cards on this page (%Ln in total)</source>
        <translation>
            <numerusform>Keine Karten auf dieser Seite (insgesamt %Ln)</numerusform>
            <numerusform>Keine Karten auf dieser Seite (insgesamt %Ln)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Showing 1 card</source>
        <translation>1 Karte</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Showing %1–%2 of %Ln cards</source>
        <translation>
            <numerusform>Karten %1–%2 von %Ln</numerusform>
            <numerusform>Karten %1–%2 von %Ln</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PaintingNote</name>
    <message>
        <location filename="../cardviewer/ui/painting_note.py" line="+24"/>
        <source>%1 of %2 cards</source>
        <translation>%1 von %2 Karten</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>vCards</source>
        <translation>vCards</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop saving the vCards</source>
        <translation>Speichern der vCards abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel the vCards</source>
        <translation>vCards abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the vCards…</source>
        <translation>vCards werden abgebrochen…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Printing</source>
        <translation>Drucken</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop printing the phone list</source>
        <translation>Drucken der Telefonliste abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel printing</source>
        <translation>Drucken abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling printing…</source>
        <translation>Drucken wird abgebrochen…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export</source>
        <translation>Kartenexport</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop saving the cards</source>
        <translation>Speichern der Karten abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel the export</source>
        <translation>Export abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the export…</source>
        <translation>Export wird abgebrochen…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copying</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop copying the rows</source>
        <translation>Kopieren der Zeilen abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel copying</source>
        <translation>Kopieren abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the copy…</source>
        <translation>Kopieren wird abgebrochen…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Phone list</source>
        <translation>Telefonliste</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Stop making the phone list</source>
        <translation>Erstellen der Telefonliste abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel the phone list</source>
        <translation>Telefonliste abbrechen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelling the phone list…</source>
        <translation>Telefonliste wird abgebrochen…</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <location filename="../cardviewer/ui/preferences_dialog.py" line="+159"/>
        <location line="+213"/>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location line="-196"/>
        <source>https://cards.example.com</source>
        <translation>https://cards.example.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server address</source>
        <translation>Serveradresse</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set by your administrator</source>
        <translation>Von Ihrer Administration festgelegt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set by your administrator.</source>
        <translation>Von Ihrer Administration festgelegt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The address of your card platform, used when you sign in.</source>
        <translation>Die Adresse Ihrer Kartenplattform, die bei der Anmeldung verwendet wird.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excel workbook (.xlsx)</source>
        <translation>Excel-Arbeitsmappe (.xlsx)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a comma</source>
        <translation>ein Komma</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>a semicolon</source>
        <translation>ein Semikolon</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Automatic (from the language: ; or ,)</source>
        <translation>Automatisch (nach Sprache: ; oder ,)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comma (,)</source>
        <translation>Komma (,)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semicolon (;)</source>
        <translation>Semikolon (;)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV delimiter</source>
        <translation>CSV-Trennzeichen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>German Excel expects semicolons, English Excel commas. Automatic uses %1 here.</source>
        <translation>Deutsches Excel erwartet Semikolons, englisches Excel Kommas. „Automatisch“ verwendet hier %1.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Pages at once</source>
        <translation>Gleichzeitige Abrufe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How many pages Export All Pages and Sync Space fetch at the same time.</source>
        <translation>Wie viele Seiten „Alle Seiten exportieren“ und „Bereich synchronisieren“ gleichzeitig abrufen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A &amp;QR code beside each card</source>
        <translation>Ein &amp;QR-Code neben jeder Karte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Printed and PDF phone lists: a phone&apos;s camera reads each card&apos;s contact.</source>
        <translation>Gedruckte und PDF-Telefonlisten: Die Kamera eines Telefons liest den Kontakt jeder Karte.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Each card&apos;s picture</source>
        <translation>Das Profilbild &amp;jeder Karte</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>At the start of each row; a card without one shows its initials. Pictures not kept on this computer are downloaded, which takes longer.</source>
        <translation>Am Anfang jeder Zeile; eine Karte ohne Bild zeigt ihre Initialen. Bilder, die nicht auf diesem Computer gespeichert sind, werden heruntergeladen; das dauert länger.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Each card&apos;s &amp;picture as its photo</source>
        <translation>Das Profil&amp;bild jeder Karte als Foto</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export as vCards: each contact gets the card&apos;s picture. Pictures not kept on this computer are downloaded, which takes longer.</source>
        <translation>Als vCards exportieren: Jeder Kontakt erhält das Bild der Karte. Bilder, die nicht auf diesem Computer gespeichert sind, werden heruntergeladen; das dauert länger.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Takes effect after %1 is restarted.</source>
        <translation>Wird nach einem Neustart von %1 wirksam.</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Forgets the sign-in on this computer, and the spaces it synced.</source>
        <translation>Löscht die gespeicherte Anmeldung und die lokalen Kopien der damit synchronisierten Bereiche von diesem Computer.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Deletes the spaces synced to browse offline from this computer; a new sync brings one back.</source>
        <translation>Löscht die offline lesbaren, synchronisierten Bereiche von diesem Computer; eine neue Synchronisierung holt sie zurück.</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>E&amp;xport format:</source>
        <translation>E&amp;xportformat:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pages at o&amp;nce:</source>
        <translation>&amp;Gleichzeitige Abrufe:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>vCards:</source>
        <translation>vCards:</translation>
    </message>
    <message>
        <location line="+181"/>
        <source>The preferences could not be saved to %1.</source>
        <translation>Die Einstellungen konnten nicht in %1 gespeichert werden.</translation>
    </message>
    <message>
        <location line="-334"/>
        <source>Default export format</source>
        <translation>Standardformat für Exporte</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The file type the exports suggest; you can still pick the other.</source>
        <translation>Der Dateityp, den die Exporte vorschlagen; Sie können trotzdem den anderen wählen.</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Sign &amp;Out</source>
        <translation>Ab&amp;melden</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Clear &amp;Avatar Cache</source>
        <translation>Profilbild-Cache &amp;leeren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Profile pictures are downloaded again when they are next shown.</source>
        <translation>Profilbilder werden neu heruntergeladen, wenn sie das nächste Mal angezeigt werden.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remove Local &amp;Copies</source>
        <translation>Lokale &amp;Kopien entfernen</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;Server address:</source>
        <translation>&amp;Serveradresse:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>CSV &amp;delimiter:</source>
        <translation>CSV-&amp;Trennzeichen:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Phone list:</source>
        <translation>Telefonliste:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Language:</source>
        <translation>S&amp;prache:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Account:</source>
        <translation>Konto:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pictures:</source>
        <translation>Bilder:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Spaces:</source>
        <translation>Bereiche:</translation>
    </message>
    <message>
        <location line="+168"/>
        <source>Preferences Not Saved</source>
        <translation>Einstellungen nicht gespeichert</translation>
    </message>
</context>
<context>
    <name>RemovalQuestion</name>
    <message>
        <location filename="../cardviewer/ui/removal_question.py" line="+18"/>
        <location line="+5"/>
        <source>Sign Out</source>
        <translation>Abmelden</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Signing out also removes the spaces this account synced from this computer.</source>
        <translation>Beim Abmelden werden auch die Bereiche, die dieses Konto synchronisiert hat, von diesem Computer entfernt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Remove Local Copies</source>
        <translation>Lokale Kopien entfernen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove all synced spaces from this computer?</source>
        <translation>Alle lokalen Kopien synchronisierter Bereiche von diesem Computer entfernen?</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>To browse a space offline again, Sync Space fetches all of its cards again.</source>
        <translation>Um einen Bereich wieder offline zu lesen, holt „Bereich synchronisieren“ alle seine Karten erneut.</translation>
    </message>
</context>
<context>
    <name>SpaceOverview</name>
    <message>
        <location filename="../cardviewer/ui/month_chart.py" line="+55"/>
        <location filename="../cardviewer/ui/overview_window.py" line="+108"/>
        <source>Cards created per month</source>
        <translation>Neue Karten je Monat</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No card says when it was made.</source>
        <translation>Keine Karte nennt ihr Erstellungsdatum.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>From %1 to %2; the most in %3: %4.</source>
        <translation>Von %1 bis %2; die meisten im %3: %4.</translation>
    </message>
    <message>
        <location filename="../cardviewer/ui/overview_window.py" line="-19"/>
        <source>Space Overview</source>
        <translation>Bereichsübersicht</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cards</source>
        <translation>Karten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public</source>
        <translation>Öffentlich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Private</source>
        <translation>Nicht öffentlich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>With e-mails</source>
        <translation>Mit E-Mail-Adressen</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Lists of cards</source>
        <translation>Kartenlisten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connects</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connected cards</source>
        <translation>Verbundene Karten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Most connects</source>
        <translation>Meiste Verbindungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cards with the highest count in the Connects column</source>
        <translation>Die Karten mit den höchsten Zahlen in der Spalte „Verbindungen“</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Most connected cards</source>
        <translation>Meiste verbundene Karten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cards with the highest count in the Connected cards column</source>
        <translation>Die Karten mit den höchsten Zahlen in der Spalte „Verbundene Karten“</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Recently updated</source>
        <translation>Zuletzt aktualisiert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The cards updated last</source>
        <translation>Die zuletzt aktualisierten Karten</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Save Chart…</source>
        <translation>Diagramm speichern…</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>not loaded</source>
        <translation>nicht geladen</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>(no name)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Open a space first.</source>
        <translation>Öffnen Sie zuerst einen Bereich.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Overview of %1</source>
        <translation>Übersicht von %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Save Chart</source>
        <translation>Diagramm speichern</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The chart could not be saved as %1. %2</source>
        <translation>Das Diagramm konnte nicht als %1 gespeichert werden. %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved the chart to %1</source>
        <translation>Diagramm unter %1 gespeichert</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Working out the overview of every card of the local copy…</source>
        <translation>Die Übersicht aller Karten der lokalen Kopie wird berechnet…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Only the %1 cards loaded from the server: sync the space (View → Sync Space) for an overview of every card.</source>
        <translation>Nur die %1 vom Server geladenen Karten: Synchronisieren Sie den Bereich (Ansicht → Bereich synchronisieren) für eine Übersicht aller Karten.</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Working out the overview stopped unexpectedly; open it again.</source>
        <translation>Die Übersicht brach unerwartet ab; öffnen Sie sie erneut.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The local copy could not be read: %1</source>
        <translation>Die lokale Kopie konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Every card of the local copy synced %1.</source>
        <translation>Alle Karten der lokalen Kopie, Stand %1.</translation>
    </message>
</context>
<context>
    <name>TableCopy</name>
    <message>
        <location filename="../cardviewer/ui/cards/table_copy.py" line="+295"/>
        <source>Nothing to copy</source>
        <translation>Nichts zu kopieren</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copied 1 row</source>
        <translation>1 Zeile kopiert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copied %1 rows</source>
        <translation>%1 Zeilen kopiert</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copied 1 cell</source>
        <translation>1 Zelle kopiert</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>This card has no e-mail address.</source>
        <translation>Diese Karte hat keine E-Mail-Adresse.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copied the e-mail address %1</source>
        <translation>E-Mail-Adresse %1 kopiert</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Copy Cell</source>
        <translation>Zelle kopieren</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy Row</source>
        <translation>Zeile kopieren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copy E-mail</source>
        <translation>E-Mail kopieren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copy Selection</source>
        <translation>Auswahl kopieren</translation>
    </message>
</context>
</TS>
