"""Deterministic sample data: a company space with international staff, and an empty space.

Everything is drawn from one `random.Random(seed)`, so the same seed gives the same
cards on every machine and in every run. Names come in the script people write them in
(with a Latin form for handles, e-mail addresses and avatar initials), job titles are a
mix of English and local languages, and a few cards carry the awkward values real data
has: commas and quotes in names, very long titles, an emoji, an empty title.
"""

# ruff: noqa: RUF001  (names and titles are written in their own scripts, on purpose)

from __future__ import annotations

import bisect
import itertools
import random
import re
import string
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

DEMO_EMAIL = "demo@cardviewer.example"
DEMO_PASSWORD = "demo"
DEMO_SPACE_ID = "acme1EU01demo01"
DEMO_SPACE_NAME = "Acme Europe GmbH"
EMPTY_SPACE_ID = "acme1EU01empty0"
EMPTY_SPACE_NAME = "Acme Labs Sandbox"

ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 15
# Maps a random byte to an id character (the slight bias towards the first 8 is harmless).
_ID_BYTES = bytes(ord(ID_ALPHABET[b % len(ID_ALPHABET)]) for b in range(256))
MAIL_DOMAIN = "acme.example"
SECOND_MAIL_DOMAIN = "acme-europe.example"
WEBSITE = "https://www.acme.example/team/"
DEFAULT_AVATAR_SIZE = 984  # bytes of the default PNG the image host serves

# Cards were created over these years; fixed so that the data never depends on today.
FIRST_CREATED = datetime(2019, 4, 1, tzinfo=UTC)
LAST_UPDATED = datetime(2025, 9, 30, 18, 0, tzinfo=UTC)

Name = tuple[str, str]
"""A name as written, and the same name in Latin letters."""


def _names(text: str) -> tuple[Name, ...]:
    """Read `"Анна=Anna, Ольга=Olga"`; a name without `=` is written in Latin letters."""
    names = []
    for item in text.split(","):
        written, _, latin = item.strip().partition("=")
        names.append((written, latin or written))
    return tuple(names)


@dataclass(frozen=True, slots=True)
class Culture:
    """How people of one language are named, and the job titles they write locally."""

    code: str
    weight: int
    women: tuple[Name, ...]
    men: tuple[Name, ...]
    surnames: tuple[Name, ...]
    # Gendered surnames (Polish -ska, Greek, Russian): the women's forms in the same order.
    surnames_women: tuple[Name, ...] = ()
    surname_first: bool = False
    separator: str = " "
    titles: tuple[str, ...] = ()
    umlauts: bool = False  # German spells ä/ö/ü as ae/oe/ue in addresses, others drop marks
    double_surname: float = 0.0
    latin_script: bool = field(init=False)

    def __post_init__(self) -> None:
        names = (*self.women, *self.men, *self.surnames)
        object.__setattr__(self, "latin_script", all(w == latin for w, latin in names))


CULTURES: tuple[Culture, ...] = (
    Culture(
        "de",
        30,
        _names("Anna, Sophie, Marie, Lena, Katharina, Jana, Hannah, Lea, Jutta, Bärbel"),
        _names("Lukas, Maximilian, Felix, Jürgen, Jörg, Tobias, Björn, Uwe, Matthias, Stefan"),
        _names(
            "Schmidt, Müller, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Hoffmann, "
            "Schäfer, Koch, Groß, Weiß, Krüger, Zimmermann"
        ),
        titles=(
            "Vertrieb Innendienst",
            "Teamleitung Kundenservice",
            "Geschäftsführung",
            "Projektleitung Digitalisierung",
            "Werkstudent*in Marketing",
            "Leitung Forschung & Entwicklung – Elektromobilität und Batteriesysteme",
        ),
        umlauts=True,
    ),
    Culture(
        "fr",
        10,
        _names("Camille, Élodie, Hélène, Léa, Chloé, Margaux, Anaïs"),
        _names("François, Jérôme, Mathéo, Nicolas, Thibault, Loïc"),
        _names("Dubois, Lefèvre, Moreau, Girard, Rousseau, Faure, Mercier, Lemaître, Bonnet"),
        titles=("Responsable des ventes", "Ingénieur d'affaires", "Chef de projet"),
    ),
    Culture(
        "es",
        8,
        _names("María, Lucía, Sofía, Nuria, Carmen, Pilar"),
        _names("José, Álvaro, Íñigo, Javier, Sergio, Raúl"),
        _names("García, Martínez, López, Sánchez, Pérez, Fernández, Muñoz, Peña, Ibáñez"),
        titles=("Responsable de Marketing", "Gerente de Cuentas Clave", "Técnico de Soporte"),
        double_surname=0.5,
    ),
    Culture(
        "pt",
        5,
        _names("Inês, Beatriz, Conceição, Mariana, Leonor"),
        _names("João, Gonçalo, Luís, Tiago, Rodrigo"),
        _names("Silva, Gonçalves, Araújo, Simões, Magalhães, Brandão"),
        titles=("Gerente de Projetos", "Analista Financeiro", "Diretor Comercial"),
    ),
    Culture(
        "pl",
        5,
        _names("Małgorzata, Agnieszka, Zofia, Katarzyna, Joanna"),
        _names("Łukasz, Wojciech, Paweł, Grzegorz, Michał"),
        _names("Nowak, Wójcik, Kowalski, Wiśniewski, Zając, Mazur"),
        surnames_women=_names("Nowak, Wójcik, Kowalska, Wiśniewska, Zając, Mazur"),
        titles=("Kierownik ds. logistyki", "Specjalista ds. sprzedaży"),
    ),
    Culture(
        "tr",
        5,
        _names("Ayşe, Çağla, Elif, Zeynep, Gülşen"),
        _names("Mehmet, İbrahim, Gökhan, Emre, Oğuz"),
        _names("Yılmaz, Öztürk, Şahin, Kılıç, Çelik, Aydın, Doğan"),
        titles=("Satış Müdürü", "İnsan Kaynakları Uzmanı", "Yazılım Geliştirici"),
    ),
    Culture(
        "sv",
        5,
        _names("Åsa, Märta, Ingrid, Linnéa, Sofia"),
        _names("Björn, Lars, Göran, Anders, Örjan"),
        _names("Lindström, Sjöberg, Ekström, Åkesson, Nilsson, Johansson, Bergqvist"),
        titles=("Försäljningschef", "Ekonomiansvarig", "Systemutvecklare"),
    ),
    Culture(
        "en",
        8,
        _names("Emma, Olivia, Siobhán, Charlotte, Grace"),
        _names("James, Oliver, Liam, Harry, Connor"),
        _names("Smith, Jones, Taylor, O'Brien, Murphy, Walsh, Evans"),
    ),
    Culture(
        "it",
        5,
        _names("Giulia, Francesca, Chiara"),
        _names("Marco, Niccolò, Lorenzo"),
        _names("Rossi, Bianchi, Esposito, Ricci, De Luca, D'Angelo"),
        titles=("Responsabile Acquisti",),
    ),
    Culture(
        "vi",
        3,
        _names("Thu Hà, Ngọc Anh, Thảo, Phương Linh"),
        _names("Minh Tuấn, Đức Anh, Quang Huy, Văn Nam"),
        _names("Nguyễn, Trần, Lê, Phạm, Hoàng, Đặng, Võ"),
        surname_first=True,
        titles=("Trưởng phòng Kinh doanh", "Kỹ sư phần mềm"),
    ),
    Culture(
        "el",
        2,
        _names("Μαρία=Maria, Ελένη=Eleni, Κατερίνα=Katerina, Δήμητρα=Dimitra"),
        _names("Γιώργος=Giorgos, Νίκος=Nikos, Δημήτρης=Dimitris, Κώστας=Kostas"),
        _names(
            "Παπαδόπουλος=Papadopoulos, Παπαδάκης=Papadakis, Γεωργίου=Georgiou, Οικονόμου=Oikonomou"
        ),
        surnames_women=_names(
            "Παπαδοπούλου=Papadopoulou, Παπαδάκη=Papadaki, Γεωργίου=Georgiou, Οικονόμου=Oikonomou"
        ),
    ),
    Culture(
        "ru",
        3,
        _names("Анна=Anna, Ольга=Olga, Екатерина=Ekaterina, Наталья=Natalya"),
        _names("Иван=Ivan, Дмитрий=Dmitry, Сергей=Sergey, Алексей=Alexey"),
        _names("Иванов=Ivanov, Смирнов=Smirnov, Кузнецов=Kuznetsov, Попов=Popov, Соколов=Sokolov"),
        surnames_women=_names(
            "Иванова=Ivanova, Смирнова=Smirnova, Кузнецова=Kuznetsova, Попова=Popova, "
            "Соколова=Sokolova"
        ),
        titles=("Руководитель отдела продаж", "Менеджер по работе с клиентами"),
    ),
    Culture(
        "ar",
        3,
        _names("ليلى=Layla, فاطمة=Fatima, نور=Nour, مريم=Mariam"),
        _names("أحمد=Ahmed, يوسف=Youssef, عمر=Omar, خالد=Khaled"),
        _names("حداد=Haddad, الخطيب=Al-Khatib, منصور=Mansour, العلي=Al-Ali, ناصر=Nasser"),
        titles=("مدير المبيعات",),
    ),
    Culture(
        "hi",
        3,
        _names("प्रिया=Priya, अनन्या=Ananya, दीपिका=Deepika"),
        _names("राहुल=Rahul, अर्जुन=Arjun, विक्रम=Vikram"),
        _names("शर्मा=Sharma, पटेल=Patel, गुप्ता=Gupta, सिंह=Singh, अय्यर=Iyer"),
        titles=("बिक्री प्रबंधक",),
    ),
    Culture(
        "zh",
        3,
        _names("芳=Fang, 静=Jing, 丽娜=Lina, 雪=Xue"),
        _names("伟=Wei, 强=Qiang, 浩然=Haoran, 俊杰=Junjie"),
        _names("王=Wang, 李=Li, 张=Zhang, 刘=Liu, 陈=Chen, 欧阳=Ouyang"),
        surname_first=True,
        separator="",
        titles=("销售经理", "高级软件工程师", "市场总监"),
    ),
    Culture(
        "ja",
        2,
        _names("花子=Hanako, さくら=Sakura, 美咲=Misaki, 由美=Yumi"),
        _names("太郎=Taro, 健太=Kenta, 翔=Sho, 大輔=Daisuke"),
        _names("山田=Yamada, 佐藤=Sato, 鈴木=Suzuki, 高橋=Takahashi, 渡辺=Watanabe"),
        surname_first=True,
        separator="\u3000",  # the ideographic space Japanese names are often written with
        titles=("営業部長", "ソフトウェアエンジニア"),
    ),
    Culture(
        "ko",
        2,
        _names("지은=Ji-eun, 서연=Seo-yeon, 민지=Min-ji"),
        _names("민준=Min-jun, 도윤=Do-yun, 현우=Hyun-woo"),
        _names("김=Kim, 이=Lee, 박=Park, 최=Choi, 정=Jung"),
        surname_first=True,
        separator="",
        titles=("영업 관리자", "소프트웨어 엔지니어"),
    ),
)

TITLES: tuple[str, ...] = (
    "Sales Manager",
    "Account Executive",
    "Key Account Manager DACH",
    "Software Engineer",
    "Senior Software Engineer",
    "Staff Engineer, Platform",
    "Product Manager",
    "Product Owner",
    "UX Designer",
    "Head of Marketing",
    "Marketing Specialist",
    "Content Strategist",
    "HR Business Partner",
    "Talent Acquisition Lead",
    "Office Manager",
    "Financial Controller",
    "Chief Executive Officer",
    "Chief Financial Officer",
    "Chief Technology Officer",
    "Customer Success Manager",
    "Data Analyst",
    "Data Scientist",
    "Solutions Architect",
    "IT Administrator",
    "Legal Counsel",
    "Procurement Specialist",
    "Logistics Coordinator",
    "Regional Sales Director, Southern Europe",
    "Business Development Representative",
    "Executive Assistant to the CEO",
    "Working Student Marketing",
    "Trainee",
    "Senior Consultant",
    "Project Manager (PMP)",
    "R&D Engineer",
    "Quality Assurance Engineer",
    "Head of People & Culture",
)

LONG_TITLES: tuple[str, ...] = (
    "Senior Vice President, Global Strategic Partnerships & Business Development",
    "Head of Regulatory Affairs, Quality Assurance and Pharmacovigilance (EMEA)",
    "Director of Customer Experience, Digital Transformation & Omnichannel Operations "
    "– Central and Eastern Europe",
    "Principal Software Engineer – Distributed Systems, Observability and Site Reliability",
)


@dataclass(frozen=True, slots=True)
class Special:
    """A hand-written card with a value that trips up naive code (CSV, escaping, width)."""

    display_name: str
    initials: str
    given: str
    family: str
    position: str


SPECIALS: tuple[Special, ...] = (
    Special("Dr. Ana O'Neil, PhD", "AO", "Ana", "O'Neil", "Chief Medical Officer"),
    Special('Maximilian "Max" Müller', "MM", "Maximilian", "Mueller", "Sales Engineer, DACH"),
    Special("Smith, Jane", "JS", "Jane", "Smith", "Head of Legal; Data Protection Officer"),
    Special("Kai Wagner 🚀", "KW", "Kai", "Wagner", "Growth Hacker"),
    Special(
        "María Fernanda de los Ángeles García-Villalobos y Rodríguez de la Fuente",
        "MR",
        "Maria Fernanda",
        "Garcia-Villalobos",
        LONG_TITLES[0],
    ),
    Special("Renée Lefèvre-Dubois", "RL", "Renee", "Lefevre-Dubois", 'Directrice "Grands Comptes"'),
    Special("@acme Reception", "AR", "Reception", "Desk", "Front Desk <Vienna Office>"),
)


def _special_index(k: int) -> int:
    """Special cards sit at fixed places on the first pages, whatever the card count."""
    return 3 + 7 * k


_FOLD = str.maketrans(
    {
        "ß": "ss",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ı": "i",
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "Ae",
        "œ": "oe",
        "Œ": "Oe",
        "'": "",
        "\u2019": "",  # right single quotation mark, the typographic apostrophe
    }
)
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


# The folds below are cached: a large demo space folds the same few thousand names
# hundreds of thousands of times.


@lru_cache(maxsize=8192)
def ascii_fold(text: str, *, umlauts: bool = False) -> str:
    """Latin text without diacritics, as used in e-mail addresses and handles."""
    if umlauts:
        text = text.translate(_UMLAUTS)
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return text.encode("ascii", "ignore").decode("ascii")


@lru_cache(maxsize=8192)
def slug(text: str, separator: str = "-", *, umlauts: bool = False) -> str:
    """`"Jürgen Groß"` → `"juergen-gross"` with German umlauts, else `"jurgen-gross"`."""
    return separator.join(re.findall(r"[a-z0-9]+", ascii_fold(text, umlauts=umlauts).lower()))


@lru_cache(maxsize=8192)
def initials_of(given: str, family: str) -> str:
    """Two ASCII capitals; the avatar font has Latin letters only."""
    letters = [ascii_fold(part).strip()[:1].upper() for part in (given, family)]
    return "".join(letters) or "?"


def timestamp(value: datetime) -> str:
    """ISO 8601 UTC with microseconds and `Z`, as the platform writes it."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True, slots=True)
class DemoEmail:
    uuid: str
    email: str
    is_primary: bool

    def to_json(self) -> dict[str, Any]:
        return {"uuid": self.uuid, "email": self.email, "is_primary": self.is_primary}


@dataclass(frozen=True, slots=True)
class DemoCard:
    """One card as stored; `to_json` renders it as the API sends it."""

    uuid: str
    username: str
    display_name: str
    initials: str
    position: str
    public: bool
    connected_cards: int
    connects: int
    subscriptions: dict[str, str] | None
    created_at: datetime
    updated_at: datetime
    redirection: str | None
    is_business: bool
    avatar_uuid: str | None
    avatar_size: int
    emails: tuple[DemoEmail, ...]

    def avatar_json(self, avatar_base_url: str) -> dict[str, Any]:
        if self.avatar_uuid is None:
            default = f"{avatar_base_url}/avatars/default.png"
            return {
                "uuid": None,
                "src": default,
                "src_large": default,
                "mim_type": "image/png",
                "extension": "png",
                "size": self.avatar_size,
            }
        return {
            "uuid": self.avatar_uuid,
            "src": f"{avatar_base_url}/avatars/{self.avatar_uuid}.jpg",
            "src_large": f"{avatar_base_url}/avatars/large/{self.avatar_uuid}.jpg",
            "mim_type": "image/jpeg",
            "extension": "jpg",
            "size": self.avatar_size,
        }

    def to_json(
        self, space: DemoSpace, avatar_base_url: str, *, with_emails: bool = False
    ) -> dict[str, Any]:
        card: dict[str, Any] = {
            "uuid": self.uuid,
            "avatar": self.avatar_json(avatar_base_url),
            "username": self.username,
            "display_name": self.display_name,
            "position": self.position,
            "public": self.public,
            "connected_cards": self.connected_cards,
            "connects": self.connects,
            "subscriptions": dict(self.subscriptions) if self.subscriptions else None,
            "redirection": self.redirection,
            "is_business": self.is_business,
            "space": {"uuid": space.uuid, "name": space.name},
            "created_at": timestamp(self.created_at),
            "updated_at": timestamp(self.updated_at),
        }
        if with_emails:
            card["emails"] = [email.to_json() for email in self.emails]
        return card


@dataclass(frozen=True, slots=True)
class DemoSpace:
    uuid: str
    name: str
    cards: Sequence[DemoCard]


class _Generator:
    """Draws cards from one random stream; keeps ids, handles and addresses unique."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.ids: set[str] = set()
        self.usernames: dict[str, int] = {}
        self.addresses: dict[str, int] = {}
        self.cum_weights = list(itertools.accumulate(c.weight for c in CULTURES))
        self.total_weight = self.cum_weights[-1] + 0.0

    def new_id(self) -> str:
        while True:
            value = self.rng.randbytes(ID_LENGTH).translate(_ID_BYTES).decode("ascii")
            if value not in self.ids:
                self.ids.add(value)
                return value

    @staticmethod
    def _unique(base: str, taken: dict[str, int], join: str) -> str:
        """`base`, else `base` with the next free number: anna-schmidt, anna-schmidt-2, …

        `taken` holds every value handed out, with the last number tried for its base.
        """
        n = taken.get(base, 0)
        value = base
        while value in taken:
            n += 1
            value = f"{base}{join}{n}"
        taken[base] = max(n, 1)
        taken[value] = taken.get(value, 1)
        return value

    def person(self) -> tuple[str, str, str, str, Culture]:
        """Display name, given and family name in Latin letters, initials, culture."""
        rng = self.rng
        # `rng.choices(CULTURES, cum_weights=…)[0]` as that function draws it, without its
        # list and checks: the same random number gives the same culture.
        culture = CULTURES[
            bisect.bisect(self.cum_weights, rng.random() * self.total_weight, 0, len(CULTURES) - 1)
        ]
        woman = rng.random() < 0.5
        given = rng.choice(culture.women if woman else culture.men)
        index = rng.randrange(len(culture.surnames))
        forms = culture.surnames_women if woman and culture.surnames_women else culture.surnames
        family = [forms[index]]
        if rng.random() < culture.double_surname:
            second = rng.choice(forms)
            if second != family[0]:
                family.append(second)
        family_written = " ".join(f[0] for f in family)
        family_latin = " ".join(f[1] for f in family)
        if not culture.latin_script and rng.random() < 0.3:
            display = f"{given[1]} {family_latin}"  # romanised, in Western order
        elif culture.surname_first:
            display = f"{family_written}{culture.separator}{given[0]}"
        else:
            display = f"{given[0]} {family_written}"
        if culture.code == "de" and rng.random() < 0.06:
            display = "Dr. " + display
        return display, given[1], family_latin, initials_of(given[1], family_latin), culture

    def title(self, culture: Culture) -> str:
        roll = self.rng.random()
        if roll < 0.02:
            return ""
        if roll < 0.06:
            return self.rng.choice(LONG_TITLES)
        if culture.titles and roll < 0.3:
            return self.rng.choice(culture.titles)
        return self.rng.choice(TITLES)

    def emails(self, given: str, family: str, umlauts: bool) -> tuple[DemoEmail, ...]:
        rng = self.rng
        if rng.random() < 0.04:
            return ()
        first = slug(given, ".", umlauts=umlauts) or "team"
        last = slug(family, ".", umlauts=umlauts) or "member"
        local = self._unique(f"{first}.{last}", self.addresses, "")
        emails = [DemoEmail(self.new_id(), f"{local}@{MAIL_DOMAIN}", True)]
        if rng.random() < 0.35:
            emails.append(
                DemoEmail(self.new_id(), f"{first[0]}.{last}@{SECOND_MAIL_DOMAIN}", False)
            )
        return tuple(emails)

    def card(self, created: datetime, special: Special | None) -> DemoCard:
        rng = self.rng
        if special is None:
            display, given, family, initials, culture = self.person()
            position = self.title(culture)
            umlauts = culture.umlauts
        else:
            display, given, family = special.display_name, special.given, special.family
            initials, position, umlauts = special.initials, special.position, False
        username = self._unique(slug(f"{given} {family}", umlauts=umlauts), self.usernames, "-")
        span = int((LAST_UPDATED - created).total_seconds())
        updated = (
            created if rng.random() < 0.3 else created + timedelta(seconds=rng.randint(0, span))
        )
        subscriptions = None
        if rng.random() < 0.06:
            renews = updated + timedelta(days=rng.randint(30, 365))
            subscriptions = {
                "plan": rng.choice(("business", "premium")),
                "status": "active",
                "renews_at": timestamp(renews),
            }
        default_avatar = rng.random() < 1 / 8
        return DemoCard(
            uuid=self.new_id(),
            username=username,
            display_name=display,
            initials=initials,
            position=position,
            public=rng.random() < 0.8,
            connected_cards=int(rng.expovariate(1 / 25)),
            connects=int(rng.expovariate(1 / 300)),
            subscriptions=subscriptions,
            created_at=created,
            updated_at=updated,
            redirection=f"{WEBSITE}{username}" if rng.random() < 0.05 else None,
            is_business=rng.random() < 0.9,
            avatar_uuid=None if default_avatar else self.new_id(),
            avatar_size=DEFAULT_AVATAR_SIZE if default_avatar else rng.randint(9_000, 60_000),
            emails=self.emails(given, family, umlauts),
        )


def _creation_times(rng: random.Random, count: int) -> list[datetime]:
    """Sorted creation times: the platform lists cards in the order they were created."""
    span = int((LAST_UPDATED - FIRST_CREATED).total_seconds())
    return [FIRST_CREATED + timedelta(seconds=s) for s in sorted(rng.sample(range(span), count))]


def make_cards(count: int, seed: int = 1) -> Iterator[DemoCard]:
    """`count` cards, oldest first, one at a time; the same arguments give the same cards."""
    if count < 0:
        raise ValueError(f"card count must not be negative, not {count}")
    generator = _Generator(seed)
    specials = {_special_index(k): s for k, s in enumerate(SPECIALS)}
    times = _creation_times(generator.rng, count)
    return (generator.card(created, specials.get(i)) for i, created in enumerate(times))


@lru_cache(maxsize=8)
def generate_cards(count: int, seed: int = 1) -> tuple[DemoCard, ...]:
    """`count` cards, oldest first; the same arguments always give the same cards."""
    return tuple(make_cards(count, seed))
