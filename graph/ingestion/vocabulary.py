"""The canonical predicates extraction knows, how each behaves by default, and the nouns that name
them. Pure data.

Whether a predicate is exclusive comes from the tenant's predicate registry
(graph/beliefs/predicates.py) when it registered one; these defaults apply otherwise, and a tenant's
registered predicates extend the vocabulary: "my X is Y" with X a registered predicate name is
that predicate, with the registry's cardinality. Any other "my X is Y" is an open slot keyed by X
(single-valued, memory type entity)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Canonical:
    memory_type: str
    multi: bool = False
    sensitive: bool = False
    person: bool = False  # its value is a person: a name, never "my cat" or "the coffee machine"


PREDICATES: dict[str, Canonical] = {
    "name": Canonical("fact"), "nickname": Canonical("fact", multi=True), "birthday": Canonical("fact"),
    "age": Canonical("fact"), "lives_in": Canonical("fact"), "hometown": Canonical("fact"),
    "nationality": Canonical("fact", multi=True), "works_at": Canonical("fact"), "job_title": Canonical("fact"),
    "email": Canonical("fact"), "phone_number": Canonical("fact"),
    "likes": Canonical("preference", multi=True), "dislikes": Canonical("preference", multi=True),
    "diet": Canonical("fact"), "allergy": Canonical("fact", multi=True, sensitive=True),
    "speaks": Canonical("fact", multi=True), "studies_at": Canonical("fact", multi=True),
    "car": Canonical("entity"), "pet": Canonical("entity", multi=True), "device": Canonical("entity", multi=True),
    "phone": Canonical("entity"),
    "partner": Canonical("entity", person=True), "spouse": Canonical("entity", person=True),
    "mother": Canonical("entity", person=True), "father": Canonical("entity", person=True),
    "boss": Canonical("entity", person=True),
    "sister": Canonical("entity", multi=True, person=True), "brother": Canonical("entity", multi=True, person=True),
    "child": Canonical("entity", multi=True, person=True), "friend": Canonical("entity", multi=True, person=True),
    "colleague": Canonical("entity", multi=True, person=True),
    # Kin beyond the parents: each a person; two grandmothers, many cousins.
    "grandmother": Canonical("entity", multi=True, person=True),
    "grandfather": Canonical("entity", multi=True, person=True),
    "grandchild": Canonical("entity", multi=True, person=True),
    "aunt": Canonical("entity", multi=True, person=True), "uncle": Canonical("entity", multi=True, person=True),
    "cousin": Canonical("entity", multi=True, person=True), "niece": Canonical("entity", multi=True, person=True),
    "nephew": Canonical("entity", multi=True, person=True),
    "mother_in_law": Canonical("entity", person=True), "father_in_law": Canonical("entity", person=True),
    "sister_in_law": Canonical("entity", multi=True, person=True),
    "brother_in_law": Canonical("entity", multi=True, person=True),
}
FAVORITE_PREFIX = "favorite_"  # favorite_<thing>: single-valued, a preference

# Relationship nouns -> the canonical predicate ("my wife" -> spouse, "mum" -> mother).
ROLES: dict[str, str] = {
    "wife": "spouse", "husband": "spouse", "spouse": "spouse", "girlfriend": "partner", "boyfriend": "partner",
    "hubby": "spouse", "wifey": "spouse", "missus": "spouse", "other half": "partner", "bf": "partner",
    "gf": "partner", "partner": "partner", "fiance": "partner", "fiancé": "partner", "fiancee": "partner",
    "fiancée": "partner",
    "mum": "mother", "mom": "mother", "mother": "mother", "mama": "mother", "mummy": "mother", "mommy": "mother",
    "dad": "father", "father": "father", "papa": "father", "daddy": "father",
    "boss": "boss", "manager": "boss", "line manager": "boss",
    "sister": "sister", "sis": "sister", "brother": "brother", "bro": "brother",
    "son": "child", "daughter": "child", "kid": "child", "child": "child", "eldest": "child", "youngest": "child",
    "friend": "friend", "best friend": "friend", "bestie": "friend", "mate": "friend", "buddy": "friend",
    "colleague": "colleague", "coworker": "colleague", "co-worker": "colleague", "workmate": "colleague",
    # Kin beyond the parents ("Grandma turned 90", "my cousin lives in Leeds"): the predicate is the
    # plain kin word, an in-law's with underscores as an open slot's key would have it.
    "grandma": "grandmother", "grandmother": "grandmother", "gran": "grandmother", "granny": "grandmother",
    "nan": "grandmother", "nana": "grandmother", "nanna": "grandmother", "grandmum": "grandmother",
    "grandmom": "grandmother", "grandpa": "grandfather", "grandfather": "grandfather", "grandad": "grandfather",
    "granddad": "grandfather", "gramps": "grandfather", "grandson": "grandchild", "granddaughter": "grandchild",
    "grandchild": "grandchild", "grandkid": "grandchild", "aunt": "aunt", "auntie": "aunt", "aunty": "aunt",
    "uncle": "uncle", "cousin": "cousin", "niece": "niece", "nephew": "nephew",
    "mother-in-law": "mother_in_law", "father-in-law": "father_in_law", "sister-in-law": "sister_in_law",
    "brother-in-law": "brother_in_law",
}
# Step-relations ("my stepdad", "my step-sister"): kin too, keyed by the word as said (no canonical
# word to fold them into), the siblings and children many as theirs are.
for _kin, _many in (("mum", False), ("mom", False), ("mother", False), ("dad", False), ("father", False),
                    ("sister", True), ("brother", True), ("son", True), ("daughter", True), ("kid", True),
                    ("child", True)):
    ROLES[f"step{_kin}"] = ROLES[f"step-{_kin}"] = f"step{_kin}"
    PREDICATES[f"step{_kin}"] = Canonical("entity", multi=_many, person=True)
# Words for a person that say whether "he" or "she" may mean them ("my sister", "a guy called Rob").
_SHE = """wife wifey missus gf girlfriend fiancee fiancée mum mom mother mama mummy mommy sister sis daughter grandma
grandmother gran granny nan nana nanna grandmum grandmom granddaughter aunt auntie aunty niece mother-in-law
sister-in-law stepmum stepmom stepmother stepsister stepdaughter step-mum step-mom step-mother step-sister
step-daughter girl woman lady gal"""
_HE = """husband hubby bf boyfriend fiance fiancé dad father papa daddy brother bro son grandpa grandfather grandad
granddad gramps grandson uncle nephew father-in-law brother-in-law stepdad stepfather stepbrother stepson step-dad
step-father step-brother step-son guy man boy bloke lad chap fella"""
GENDER_WORDS: dict[str, str] = dict.fromkeys(_SHE.split(), "f") | dict.fromkeys(_HE.split(), "m")
# Colours, which describe a thing ("a red Fiesta") rather than name it.
COLOURS = frozenset("""red blue green black white silver grey gray yellow orange purple pink brown gold golden navy
beige maroon teal turquoise cream bronze""".split())
# Kin words said bare, as a name ("Mum moved to York", "Grandma turned 90"): the user's.
BARE_KIN = ("hubby", "mum", "mom", "dad", "father", "mother", "grandma", "gran", "granny", "nan", "nana", "nanna",
            "grandpa", "grandad", "granddad", "gramps")
# Nouns of an owned thing that are canonical predicates already.
THING_PREDICATES: dict[str, str] = {
    "car": "car", "motorbike": "car", "motorcycle": "car", "van": "car", "phone": "phone", "mobile": "phone",
    "email": "email", "email address": "email", "e-mail": "email", "birthday": "birthday", "bday": "birthday",
    "b-day": "birthday", "date of birth": "birthday", "name": "name",
    "full name": "name", "first name": "name", "nickname": "nickname", "diet": "diet", "job": "job_title",
    "job title": "job_title", "title": "job_title", "role": "job_title", "employer": "works_at",
    "company": "works_at", "hometown": "hometown", "home town": "hometown", "number": "phone_number",
    "landline": "phone_number",
    "phone number": "phone_number", "mobile number": "phone_number", "laptop": "device", "tablet": "device",
    "watch": "device", "kindle": "device", "e-reader": "device", "console": "device", "pet": "pet",
    "dog": "pet", "cat": "pet", "base": "lives_in", "home": "lives_in",
}
# Words that name a canonical predicate's slot besides the nouns above, for a request that names the
# slot rather than the value ("forget my address" when the memory is "I live at 12 Rose Lane").
SLOT_WORDS: dict[str, tuple[str, ...]] = {
    "address": ("lives_in",), "home": ("lives_in",), "city": ("lives_in",), "flat": ("lives_in",),
    "house": ("lives_in",), "where": ("lives_in",), "job": ("job_title", "works_at"), "work": ("works_at", "job_title"),
    "workplace": ("works_at",), "career": ("job_title", "works_at"), "birth": ("birthday",), "age": ("age",),
    "contact": ("email", "phone_number"), "allergies": ("allergy",), "allergy": ("allergy",), "food": ("diet",),
    "languages": ("speaks",), "language": ("speaks",), "relationship": ("partner", "spouse"),
    "family": ("mother", "father", "sister", "brother", "child", "spouse"), "kids": ("child",),
    "children": ("child",), "pets": ("pet",), "devices": ("device",), "gadgets": ("device",),
    "school": ("studies_at",), "studies": ("studies_at",), "university": ("studies_at",),
}
# Predicates one may succeed another with, for the same subject: marrying one's partner.
SUCCESSORS: dict[str, tuple[str, ...]] = {"spouse": ("partner",)}

ANIMALS = frozenset("""dog cat puppy kitten beagle labrador lab retriever spaniel terrier poodle greyhound whippet
collie husky dachshund pug corgi bulldog rabbit bunny hamster guinea pig parrot budgie tortoise turtle snake lizard
ferret horse pony goldfish fish""".split())
DEVICE_WORDS = frozenset("""ipad iphone kindle thinkpad macbook laptop tablet chromebook pixel galaxy surface switch
playstation ps5 ps4 xbox watch fitbit garmin e-reader kobo remarkable oura airpods
headphones desktop pc mac imac""".split())
# Car and motorbike makes: "I have a 2019 Honda Civic", "I ride a Vespa" name the user's vehicle.
VEHICLE_MAKES = frozenset("""toyota honda ford vw volkswagen bmw audi mercedes mercedes-benz tesla nissan hyundai kia
skoda seat cupra renault peugeot citroen citroën fiat volvo mazda subaru mini jeep porsche lexus jaguar vauxhall opel
dacia suzuki mitsubishi chevrolet chevy dodge polestar byd alfa lancia saab smart vespa yamaha ducati harley kawasaki
triumph""".split())
PHONE_BRANDS = ("iphone", "pixel", "galaxy", "samsung", "oneplus", "nokia", "xiaomi", "motorola", "fairphone")
# Words that name a product: a device, a vehicle make, a phone brand ("a pixel 7a", "the Galaxy died").
PRODUCT_WORDS = DEVICE_WORDS | VEHICLE_MAKES | frozenset(PHONE_BRANDS)
LANGUAGES = frozenset("""english german french spanish italian portuguese dutch mandarin cantonese chinese japanese
korean arabic hindi urdu bengali punjabi russian polish czech slovak hungarian romanian greek turkish swedish
norwegian danish finnish icelandic irish welsh gaelic hebrew persian farsi swahili thai vietnamese indonesian malay
tagalog ukrainian catalan basque croatian serbian bulgarian latvian lithuanian estonian afrikaans""".split())
NATIONALITIES = frozenset("""american british english scottish welsh irish canadian australian german french spanish
italian portuguese dutch belgian swiss austrian greek turkish polish czech slovak hungarian romanian bulgarian
croatian serbian swedish norwegian danish finnish icelandic russian ukrainian brazilian argentinian argentine mexican
chilean colombian peruvian venezuelan cuban chinese japanese korean indian pakistani bangladeshi nigerian ghanaian
kenyan ethiopian egyptian moroccan south-african israeli iranian iraqi lebanese syrian saudi emirati thai vietnamese
filipino indonesian malaysian singaporean kiwi latvian lithuanian estonian maltese cypriot luxembourgish""".split())
DIETS = frozenset("""vegetarian vegan pescatarian pescetarian keto paleo halal kosher gluten-free dairy-free
lactose-free flexitarian carnivore""".split())
# The head nouns of a job title ("a freelance illustrator", "QA lead"): what "I'm a ..." must end in.
JOB_HEADS = frozenset("""gp engineer developer programmer designer architect analyst scientist manager lead director
head officer consultant advocate teacher lecturer professor tutor nurse doctor surgeon dentist physician paramedic
pharmacist therapist psychologist counsellor counselor lawyer solicitor barrister paralegal accountant auditor
bookkeeper banker trader broker illustrator artist painter photographer writer author journalist editor
translator musician singer actor producer chef cook baker barista waiter waitress bartender driver pilot mechanic
electrician plumber carpenter builder gardener farmer vet veterinarian librarian researcher student intern
sysadmin administrator admin dev devops founder ceo cto cfo coo owner entrepreneur freelancer contractor clerk
assistant receptionist cashier salesperson marketer recruiter coordinator planner specialist technician
inspector officer firefighter soldier police policeman policewoman detective carer caregiver midwife
physiotherapist optometrist economist statistician mathematician physicist chemist biologist""".split())
# Head nouns of an organisation or a place of work or study, written lower-case in chat or not
# ("st thomas' hospital", "the University of Porto"); the first group is where one studies.
SCHOOLS = frozenset("university uni college school academy institute polytechnic".split())
# The last word of a school's name: where someone other than the user is, goes or starts, they study.
SCHOOL_NAMES = SCHOOLS | frozenset("primary nursery preschool kindergarten juniors infants".split())
INSTITUTIONS = SCHOOLS | frozenset("""hospital clinic bank surgery library council agency studio lab labs office zoo
museum hotel restaurant cafe café bakery shop store gym firm practice""".split())
# Words that are never the thing owned in "my X is Y" (feelings, body, turns of phrase).
NOT_THINGS = frozenset("""bad fault turn point guess day week weekend life head brain heart back knees knee feet
hands body mind mood luck pleasure treat plan idea problem question answer issue worry concern excuse story
thoughts favourite favorite fav real spirit inner bet hope dream wish goal job reason advice opinion view
understanding impression sense gut memory english kid kids family house home place flat room stuff things
schedule calendar life routine meeting appointment lunch dinner breakfast call interview flight train class lesson
session intro introduction update note reminder context background summary recap""".split())
# Words that are never a value worth a claim, lower-case ("my bank is closed", "my brain is mush").
NOT_VALUES = frozenset("""a an the it this that these those here there what who which mine yours his hers ours theirs
great good bad fine ok okay nice lovely awful terrible horrible amazing brilliant best worst better worse closed open
broken down up out off on busy free full empty late early new old same different mush dead alive gone away back home
sick ill tired done over still now again too very really so just great-ish slow fast cheap expensive big small huge
tiny right wrong true false annoying weird funny cute sweet crazy mad angry sad happy glad sorry sure safe fine
anymore always never sometimes one not nothing none no nobody something someone somewhere anything anyone""".split())
