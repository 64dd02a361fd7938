// Word lists for the demo catalogue: categories, building kinds and names, people, trades,
// tags, usernames and archive sources of the East End.

/** [name, description, thumbnail] — ids are handed out by the generator. */
export const CATEGORIES: readonly (readonly [string, string, string])[] = [
  ['Pubs', 'Public houses, beer shops and gin palaces, many of them rebuilt in the 1890s.', 'categories/pubs.png'],
  ['Synagogues', 'Places of Jewish worship, from the great synagogues to the small chevras of back streets.', 'categories/synagogues.png'],
  ['Churches and chapels', 'Anglican churches, nonconformist chapels and the Huguenot churches of Spitalfields.', 'categories/churches.png'],
  ['Mosques', '', 'categories/mosques.png'],
  ['Schools', 'Board schools, charity schools, ragged schools and their successors.', 'categories/schools.png'],
  ['Shops', 'Shops and shopfronts.', 'categories/shops.png'],
  ['Housing', 'Houses, tenements, model dwellings and council estates.', 'categories/housing.png'],
  ['Industry', 'Factories, foundries, refineries and workshops.', 'categories/industry.png'],
  ['Hospitals', '', 'categories/hospitals.png'],
  ['Mission halls', 'Missions, settlements and the halls of temperance and evangelical movements.', 'categories/missions.png'],
  ['Theatres and cinemas', 'Music halls, Yiddish theatres and picture palaces.', 'categories/theatres.png'],
  ['Markets', 'Street markets and market buildings.', 'categories/markets.png'],
  ['Warehouses', '', 'categories/warehouses.png'],
  ['Banks', 'Banks and former banks.', 'categories/banks.png'],
  ['Almshouses', 'Almshouses and charitable housing for the old.', 'categories/almshouses.png'],
  ['Breweries', 'Breweries, maltings and brewers’ offices.', 'categories/breweries.png'],
  ['Workshops', 'Tailoring, cabinet-making, weaving and other small workshops.', 'categories/workshops.png'],
  ['Public buildings', 'Libraries, baths, police and fire stations, vestry halls.', 'categories/public buildings.png'],
  ['Lost buildings', 'Buildings that have been demolished.', 'categories/lost.png'],
  ['Open spaces', '', 'categories/open-spaces.png'],
  ['Clubs and institutes', 'Clubs, societies, settlements and reading rooms.', 'categories/clubs.png'],
  ['Cafés and restaurants', 'Cafés, restaurants, bakeries and dining rooms.', 'categories/cafes.png'],
];

/** Building kinds: [weight, kind, category name, chance of a name]. */
export const KINDS: readonly (readonly [number, string, string | null, number])[] = [
  [28, 'housing', 'Housing', 0.06],
  [24, 'shop', 'Shops', 0.12],
  [8, 'workshop', 'Workshops', 0.1],
  [5, 'industry', 'Industry', 0.45],
  [5, 'warehouse', 'Warehouses', 0.35],
  [5, 'pub', 'Pubs', 0.92],
  [4, 'cafe', 'Cafés and restaurants', 0.6],
  [2, 'synagogue', 'Synagogues', 0.95],
  [2, 'chapel', 'Churches and chapels', 0.95],
  [1, 'church', 'Churches and chapels', 1],
  [1, 'mosque', 'Mosques', 0.95],
  [2, 'school', 'Schools', 0.9],
  [1.5, 'mission', 'Mission halls', 0.9],
  [1, 'theatre', 'Theatres and cinemas', 0.95],
  [1.5, 'bank', 'Banks', 0.85],
  [2, 'public', 'Public buildings', 0.9],
  [1, 'club', 'Clubs and institutes', 0.9],
  [0.5, 'brewery', 'Breweries', 0.9],
  [0.5, 'hospital', 'Hospitals', 0.9],
];

/** Categories of the shared sites' kinds and of the non-building feature types. */
export const KIND_CATEGORY: Readonly<Record<string, string>> = {
  almshouse: 'Almshouses',
  open: 'Open spaces',
  market: 'Markets',
  place: 'Markets',
};

export const PUB_NAMES = [
  'Blind Beggar', 'Ten Bells', 'Golden Heart', 'Pride of Spitalfields', 'White Hart', 'Grave Maurice',
  'Black Bull', 'Britannia', 'Princess Alice', 'Still and Star', 'Castle', 'Alma', 'Seven Stars',
  "Nag's Head", 'Bell', 'Three Tuns', "Weavers' Arms", 'Jolly Sailor', "Queen's Head", 'Black Horse',
  'Lord Nelson', 'Rising Sun', 'King of Prussia', 'Yorkshire Grey', 'Duke of Wellington', 'Frying Pan',
  'Horn of Plenty', "Carpenters' Arms", 'Brown Bear', 'Old Globe', 'Two Brewers', 'Hoop and Grapes',
];
export const SYNAGOGUES = [
  'Fieldgate Street Great Synagogue', 'Sandys Row Synagogue', 'Machzike Hadath Synagogue', 'Congregation of Jacob Synagogue',
  'Great Garden Street Synagogue', 'Princelet Street Synagogue', 'Kalisher Synagogue', 'Płock Synagogue',
  'Łomża Chevra', 'Warsaw Synagogue', 'Vilna Synagogue', 'Dzików Chevra',
];
export const CHAPELS = [
  'Wesleyan Methodist Chapel', 'Zion Chapel', 'Ebenezer Chapel', 'Welsh Calvinistic Methodist Chapel',
  'Huguenot church', 'Baptist chapel', 'Bethel Chapel', 'Salem Chapel', 'Congregational Chapel', 'Unitarian chapel',
];
export const CHURCHES = [
  'St Mary Matfelon', "St Boniface's German Roman Catholic Church", "St Jude's Church", 'St Augustine with St Philip',
  "St Anne's Roman Catholic Church", 'St Paul, Dock Street', 'Swedish Church', 'St Olave', "St Mark's Church",
];
export const MOSQUES = ['Brick Lane Jamme Masjid', 'Darul Hadis Latifiah', 'Shahporan Masjid', 'Markazi Masjid', 'Esha-atul Islam Mosque'];
export const SCHOOL_TYPES = ['Board School', 'Ragged School', 'Primary School', 'Charity School', 'Sunday School', 'Technical School'];
export const MISSIONS = [
  'Great Assembly Hall', 'East London Tabernacle', "Working Lads' Institute", 'Salvation Army hostel', 'Medical mission',
  'Bethesda Mission', 'Mildmay Mission', "Seamen's mission", 'Mission hall',
];
export const THEATRES = [
  'Pavilion Theatre', 'Wonderland', 'Rivoli Cinema', 'Mayfair Cinema', 'Palaseum Cinema', "Foresters' Music Hall",
  'Effingham Saloon', 'Grand Palais Yiddish Theatre', 'Whitechapel Picture House', 'Electric Theatre',
];
export const BANKS = [
  'London and County Bank', 'Barclays Bank', 'Former Midland Bank', 'Sonali Bank', 'Lloyds Bank',
  'National Provincial Bank', 'London Joint Stock Bank', 'Jewish Savings Bank',
];
export const PUBLIC = [
  'Whitechapel Public Library', 'Public baths and wash-houses', 'Police station', 'Fire station', 'Post office',
  'Vestry hall', 'Board of Works offices', 'Labour Exchange', "Coroner's Court", 'Electricity-generating station',
];
export const CLUBS = [
  "Jewish Lads' Brigade", "Brady Boys' Club", 'Oxford House', "Working Men's Club", 'Jewish Reading Room',
  "Workers' Circle (Arbeter Ring)", 'Bengali social club', "Sailors' Institute",
];
export const CAFES = [
  'Café Naz', "Kossoff's bakery", "Bloom's restaurant", 'Tayyabs', 'Nazrul', 'Beigel Bake', 'Sweet and Spicy',
  'Dining rooms', "Grodzinski's bakery", 'Cafe Spice Namasté', 'Kosher dairy',
];
export const INDUSTRY = [
  'Sugar refinery', 'Garment factory', 'Former electricity-generating station', 'Cigar factory', 'Printing works',
  'Furniture factory', 'Leather works', 'Clothing factory', 'Match factory', 'Bakery',
];
export const HOSPITALS = ['Jewish Maternity Home', 'London Jewish Hospital', 'Dispensary', 'Eye hospital', 'Infirmary'];
export const HOUSING = ['Buildings', 'Dwellings', 'House', 'Mansions', 'Court', 'Cottages'];

export const SURNAMES = [
  'Cohen', 'Levy', 'Rosenberg', 'Goldstein', 'Abrahams', 'Isaacs', 'Lipman', 'Zangwill', 'Marks', 'Salmon',
  'Ogier', 'Lekeux', 'Chauvet', 'Dupree', 'Courtauld', 'Murphy', 'Sullivan', 'Donovan', 'Ali', 'Miah', 'Uddin',
  'Rahman', 'Begum', 'Choudhury', 'Ahmed', 'Smith', 'Mears', 'Stainbank', 'Buxton', 'Hanbury', 'Truman',
  'Harris', 'Kossoff', 'Schwartz', 'Weinberg', 'Kowalski', 'Nowak', 'Wiśniewski', 'Müller', 'Schröder', 'Barnett',
  'Booth', 'Green', 'Walker', 'Hughes', 'Taylor', 'Davis', 'Jacobs', 'Solomons', 'Mendoza', 'Henriques',
];
export const FIRST_NAMES = [
  'Abraham', 'Sarah', 'Isaac', 'Rachel', 'Moses', 'Leah', 'Samuel', 'Rebecca', 'John', 'Mary', 'William',
  'Elizabeth', 'Thomas', 'Ann', 'Peter', 'Esther', 'Abdul', 'Rahima', 'Mohammed', 'Shirin', 'Josef', 'Hannah',
  'Harry', 'Rose', 'Jacob', 'Golda', 'Daniel', 'Fatima', 'Louis', 'Marie',
];
export const TRADES = [
  'tailor', 'boot-maker', 'cap-maker', 'furrier', 'baker', 'grocer', 'tobacconist', 'cabinet-maker', 'silk weaver',
  'sugar refiner', 'publican', 'pawnbroker', 'butcher', 'leather merchant', 'garment manufacturer', 'draper',
  'sweet-maker', 'watchmaker', 'cheesemonger', 'hatter', 'chemist', 'bookseller', 'upholsterer', 'poulterer',
];
export const ARCHITECTS = [
  'Nathan S. Joseph', 'Lewis Solomon', 'Rowland Plumbe', 'Elijah Hoole', 'Charles Barry junior', 'E. W. Mountford',
  'Gilbert & Constanduros', 'Davis & Emanuel', 'Wimperis & Arber', 'Frederick Hyde Pownall', 'Thomas Chawner',
  'George Waymouth', 'Charles Harrison Townsend', 'Henry Cheston', 'the LCC Architect’s Department', 'Joseph Merceron',
];
export const CLIENTS = [
  'the Four Per Cent Industrial Dwellings Company', 'the Whitechapel District Board of Works', 'the London School Board',
  'Truman, Hanbury, Buxton & Co.', 'the Mercers’ Company', 'the Wood estate', 'the Tillard estate', 'a local builder',
  'the East London Railway', 'the Metropolitan Board of Works', 'the Jewish Board of Guardians', 'Mann, Crossman & Paulin',
];

export const TAGS = [
  'victorian', 'georgian', 'edwardian', 'interwar', 'postwar', 'shopfront', 'listed', 'demolished', 'bomb damage',
  'huguenot', 'jewish east end', 'bangladeshi', 'weavers', 'garment trade', 'brewing', 'terrace', 'courtyard',
  'rebuilt', 'conservation area', 'lost building', 'art deco', 'blue plaque', 'ghost sign', 'street market',
  'rag trade', 'sweatshop', 'tenement', 'model dwellings', 'mansard', 'cellar', 'workshop', 'music hall',
  'temperance', 'philanthropy', 'suffragettes', 'anarchists', 'cable street', 'council housing', 'electricity',
  'industry', 'worship', 'education', 'medicine', 'faïence', 'yiddish theatre', 'oral history',
];

/** Usernames that always come first (the real project's staff and institutions, and a few awkward ones). */
export const FIXED_USERNAMES = [
  'surveyoflondon', 'amy.w', 'tower_hamlets_archives', 'zoë', 'jpmarlow', 'bishopsgate_inst', 'ucl_bartlett',
  'eastendhistory', 'rachel_k', 'søren.b', 'Ahmed_Khan', 'spitalfields_trust', 'cathy.ross', 'józef.k',
  'renée.m', 'ayşe', 'mile_end_old_town', 'JennyP', 'rohima', 'peter.g',
];

/** Archive sources for footnotes: [template, first year, last year] ({y} is a year in that range). */
export const SOURCES: readonly (readonly [string, number, number])[] = [
  ['London Metropolitan Archives (LMA), MBW/{n}', 1855, 1889], ['LMA, District Surveyors’ Returns, {y}', 1845, 1930],
  ['Tower Hamlets Local History Library and Archives (THLHLA), P/{n}', 1860, 1990], ['The National Archives (TNA), IR 58/{n}', 1910, 1915],
  ['<em>Post Office Directory</em>, {y}', 1841, 1939], ['Survey of London drawings, {y}', 2016, 2019], ['<em>The Builder</em>, {d} {m} {y}, p.{p}', 1843, 1966],
  ['<em>Jewish Chronicle</em>, {d} {m} {y}', 1841, 2000], ['<em>East London Observer</em>, {d} {m} {y}', 1857, 1944], ['Goad insurance plan, {y}, sheet {p}', 1887, 1970],
  ['Historic England Archive, BB98/{n}', 1940, 2010], ['Census returns, {y}', 1841, 1921], ['Ordnance Survey map, 1:1056, {y}', 1873, 1895],
  ['Rate books, {y}', 1700, 1900], ['Land Tax returns, {y}', 1700, 1830], ['Sun Fire Office insurance policy registers, {y}', 1710, 1840],
];

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];
