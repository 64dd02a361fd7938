// The map of the demo catalogue: real Whitechapel and Spitalfields streets (approximate
// centre lines, [longitude, latitude], numbered from the City end), the areas used by
// GREATER_WHITECHAPEL features, and the shared sites.

export interface StreetDef {
  name: string;
  /** Postcode sector, e.g. `E1 1`. */
  sector: string;
  /** Distance from the centre line to the building line, in metres. */
  half: number;
  pts: [number, number][];
}

function s(name: string, sector: string, half: number, ...pts: [number, number][]): StreetDef {
  return { name, sector, half, pts };
}

export const STREETS: readonly StreetDef[] = [
  s('Whitechapel High Street', 'E1 7', 11, [-0.0748, 51.5142], [-0.0703, 51.5160]),
  s('Whitechapel Road', 'E1 1', 14, [-0.0703, 51.5160], [-0.0640, 51.5176], [-0.0590, 51.5190], [-0.0558, 51.5201]),
  s('Mile End Road', 'E1 4', 14, [-0.0558, 51.5201], [-0.0480, 51.5216], [-0.0400, 51.5232]),
  s('Commercial Road', 'E1 1', 12, [-0.0716, 51.5149], [-0.0660, 51.5141], [-0.0610, 51.5131], [-0.0520, 51.5125]),
  s('Commercial Street', 'E1 6', 10, [-0.0727, 51.5151], [-0.0741, 51.5192], [-0.0757, 51.5222], [-0.0771, 51.5248]),
  s('Osborn Street', 'E1 6', 6, [-0.0706, 51.5162], [-0.0711, 51.5177]),
  s('Brick Lane', 'E1 6', 6, [-0.0711, 51.5177], [-0.0716, 51.5210], [-0.0718, 51.5247]),
  s('Fieldgate Street', 'E1 1', 6, [-0.0679, 51.5164], [-0.0630, 51.5173]),
  s('Fashion Street', 'E1 6', 5, [-0.0740, 51.5185], [-0.0713, 51.5189]),
  s('Wentworth Street', 'E1 7', 6, [-0.0770, 51.5163], [-0.0713, 51.5178]),
  s('Old Montague Street', 'E1 5', 5, [-0.0706, 51.5181], [-0.0655, 51.5188]),
  s('Vallance Road', 'E1 5', 7, [-0.0641, 51.5182], [-0.0644, 51.5225], [-0.0648, 51.5263]),
  s('New Road', 'E1 1', 7, [-0.0626, 51.5178], [-0.0609, 51.5131]),
  s('Mulberry Street', 'E1 1', 4, [-0.0657, 51.5170], [-0.0653, 51.5154]),
  s('Plumbers Row', 'E1 1', 5, [-0.0667, 51.5168], [-0.0671, 51.5149]),
  s('Greatorex Street', 'E1 5', 5, [-0.0681, 51.5176], [-0.0677, 51.5201]),
  s('Hanbury Street', 'E1 5', 5, [-0.0744, 51.5206], [-0.0700, 51.5213], [-0.0660, 51.5221]),
  s('Princelet Street', 'E1 6', 4, [-0.0738, 51.5198], [-0.0714, 51.5201]),
  s('Fournier Street', 'E1 6', 5, [-0.0737, 51.5193], [-0.0714, 51.5196]),
  s('Settles Street', 'E1 1', 4, [-0.0648, 51.5156], [-0.0645, 51.5140]),
  s('Adler Street', 'E1 1', 5, [-0.0681, 51.5156], [-0.0676, 51.5142]),
  s('Cannon Street Road', 'E1 2', 6, [-0.0612, 51.5130], [-0.0596, 51.5095]),
  s('Cambridge Heath Road', 'E1 5', 9, [-0.0558, 51.5201], [-0.0560, 51.5248], [-0.0562, 51.5290]),
  s('Durward Street', 'E1 5', 5, [-0.0625, 51.5196], [-0.0586, 51.5203]),
  s('Buxton Street', 'E1 5', 5, [-0.0710, 51.5231], [-0.0652, 51.5238]),
  s('Chicksand Street', 'E1 5', 4, [-0.0705, 51.5191], [-0.0670, 51.5196]),
  s('Toynbee Street', 'E1 7', 4, [-0.0747, 51.5167], [-0.0745, 51.5183]),
  s('Gunthorpe Street', 'E1 7', 3, [-0.0716, 51.5159], [-0.0712, 51.5174]),
  s('Leman Street', 'E1 8', 7, [-0.0714, 51.5146], [-0.0701, 51.5098]),
  s('Alie Street', 'E1 8', 6, [-0.0744, 51.5132], [-0.0690, 51.5126]),
  s('Goulston Street', 'E1 7', 5, [-0.0753, 51.5149], [-0.0748, 51.5170]),
  s('Middlesex Street', 'E1 7', 6, [-0.0776, 51.5142], [-0.0780, 51.5180]),
  s('Black Lion Yard', 'E1 5', 3, [-0.0661, 51.5175], [-0.0663, 51.5184]),
  s('Sidney Street', 'E1 2', 6, [-0.0562, 51.5193], [-0.0547, 51.5140]),
  s('Turner Street', 'E1 2', 5, [-0.0583, 51.5183], [-0.0577, 51.5158]),
  s('Philpot Street', 'E1 2', 5, [-0.0600, 51.5164], [-0.0592, 51.5134]),
  s('Ashfield Street', 'E1 2', 4, [-0.0612, 51.5163], [-0.0560, 51.5158]),
  s('Stepney Way', 'E1 3', 6, [-0.0603, 51.5152], [-0.0520, 51.5163]),
  s('Hessel Street', 'E1 2', 4, [-0.0627, 51.5135], [-0.0620, 51.5118]),
  s('Myrdle Street', 'E1 1', 4, [-0.0640, 51.5165], [-0.0633, 51.5140]),
  s('Greenfield Road', 'E1 1', 5, [-0.0669, 51.5160], [-0.0660, 51.5139]),
  s('Old Castle Street', 'E1 7', 4, [-0.0738, 51.5148], [-0.0735, 51.5165]),
  s('Thrawl Street', 'E1 6', 4, [-0.0730, 51.5176], [-0.0713, 51.5180]),
  s('Flower and Dean Walk', 'E1 6', 4, [-0.0733, 51.5181], [-0.0715, 51.5184]),
  s("White's Row", 'E1 7', 4, [-0.0762, 51.5185], [-0.0748, 51.5186]),
  s('Brune Street', 'E1 7', 4, [-0.0761, 51.5175], [-0.0748, 51.5177]),
  s('Artillery Lane', 'E1 7', 4, [-0.0786, 51.5181], [-0.0765, 51.5186]),
  s('Bell Lane', 'E1 7', 4, [-0.0760, 51.5165], [-0.0758, 51.5185]),
  s('Folgate Street', 'E1 6', 5, [-0.0792, 51.5210], [-0.0766, 51.5208]),
  s('Elder Street', 'E1 6', 4, [-0.0779, 51.5202], [-0.0777, 51.5219]),
  s('Wilkes Street', 'E1 6', 4, [-0.0726, 51.5193], [-0.0728, 51.5204]),
  s('Heneage Street', 'E1 5', 4, [-0.0715, 51.5203], [-0.0699, 51.5205]),
  s('Woodseer Street', 'E1 5', 4, [-0.0716, 51.5215], [-0.0690, 51.5218]),
  s('Spelman Street', 'E1 5', 4, [-0.0692, 51.5196], [-0.0689, 51.5216]),
  s('Quaker Street', 'E1 6', 5, [-0.0756, 51.5228], [-0.0720, 51.5231]),
  s('Cheshire Street', 'E2 6', 5, [-0.0717, 51.5246], [-0.0662, 51.5254]),
  s('Sclater Street', 'E1 6', 5, [-0.0741, 51.5243], [-0.0718, 51.5246]),
  s('Bethnal Green Road', 'E2 6', 9, [-0.0745, 51.5246], [-0.0680, 51.5256], [-0.0610, 51.5268]),
  s('Brady Street', 'E1 5', 5, [-0.0611, 51.5199], [-0.0608, 51.5241]),
  s('Stepney Green', 'E1 3', 6, [-0.0478, 51.5215], [-0.0462, 51.5189]),
  s('Cable Street', 'E1 0', 7, [-0.0702, 51.5106], [-0.0620, 51.5109], [-0.0540, 51.5113]),
  s('Watney Street', 'E1 2', 5, [-0.0561, 51.5126], [-0.0565, 51.5101]),
  s('Jubilee Street', 'E1 3', 5, [-0.0520, 51.5190], [-0.0511, 51.5130]),
  s('Whitechurch Lane', 'E1 7', 3, [-0.0710, 51.5156], [-0.0707, 51.5146]),
  s('Henriques Street', 'E1 1', 4, [-0.0662, 51.5139], [-0.0656, 51.5124]),
  s('Fulbourne Street', 'E1 1', 4, [-0.0612, 51.5183], [-0.0606, 51.5192]),
  s('Deal Street', 'E1 5', 4, [-0.0680, 51.5207], [-0.0674, 51.5226]),
  s('Sandys Row', 'E1 7', 4, [-0.0772, 51.5172], [-0.0768, 51.5186]),
];

/** Areas of Greater Whitechapel: [address text, postal district, centre lon, centre lat]. */
export const AREAS: readonly (readonly [string, string, number, number])[] = [
  ['Spitalfields', 'E1', -0.0745, 51.5195],
  ["St George's in the East", 'E1', -0.0610, 51.5105],
  ['Mile End New Town', 'E1', -0.0680, 51.5225],
  ['Mile End Old Town', 'E1', -0.0470, 51.5215],
  ['Wapping', 'E1W', -0.0600, 51.5045],
  ['Shadwell', 'E1', -0.0540, 51.5110],
  ['Stepney', 'E1', -0.0460, 51.5170],
  ['Aldgate', 'EC3', -0.0770, 51.5140],
  ["Goodman's Fields", 'E1', -0.0710, 51.5120],
  ['Bethnal Green', 'E2', -0.0600, 51.5275],
  ['Ratcliff', 'E1', -0.0460, 51.5110],
  ['Norton Folgate', 'E1', -0.0785, 51.5212],
  ['Old Artillery Ground', 'E1', -0.0778, 51.5184],
  ['Tenter Ground', 'E1', -0.0755, 51.5160],
  ['Limehouse', 'E14', -0.0380, 51.5120],
];

export interface SiteDef {
  name: string;
  street: string;
  /** Where along the street the site lies (0 = start, 1 = end) and on which side. */
  at: number;
  side: 0 | 1;
  buildings: readonly string[];
  kind: string;
}

export const SITES: readonly SiteDef[] = [
  { name: 'The Royal London Hospital', street: 'Whitechapel Road', at: 0.78, side: 1, kind: 'hospital',
    buildings: ['Front Block', "Grocers' Company's Wing", 'Outpatients’ Department', 'Alexandra Wing', "Nurses' Home", 'Medical Library', 'Pathology Institute', 'Hospital chapel'] },
  { name: 'Whitechapel Bell Foundry', street: 'Whitechapel Road', at: 0.3, side: 1, kind: 'industry',
    buildings: ['Whitechapel Bell Foundry', 'Bell Foundry workshops', 'Foundry yard buildings', 'Former Black Bull public house'] },
  { name: 'Trinity Almshouses', street: 'Mile End Road', at: 0.35, side: 0, kind: 'almshouse',
    buildings: ['Trinity Almshouses, west range', 'Trinity Almshouses, east range', 'Trinity Almshouses chapel', 'Trinity Almshouses, end houses'] },
  { name: 'London Hospital Medical College', street: 'Turner Street', at: 0.4, side: 0, kind: 'school',
    buildings: ['Medical College', 'Dental School', 'Garrod Building', 'College Library', 'Anatomy School'] },
  { name: 'Tower Hamlets Cemetery', street: 'Mile End Road', at: 0.9, side: 1, kind: 'open',
    buildings: ['Cemetery lodge', 'Cemetery chapel', 'Soanes Centre', 'Cemetery gates'] },
  { name: 'Toynbee Hall', street: 'Commercial Street', at: 0.12, side: 1, kind: 'club',
    buildings: ['Toynbee Hall', 'Wadham House', 'Balliol House', 'Lecture hall'] },
  { name: "Truman's Black Eagle Brewery", street: 'Brick Lane', at: 0.45, side: 0, kind: 'brewery',
    buildings: ["Director's House", 'Brewhouse', 'Engine House', 'Vat House', 'Boiler House', 'Bottling stores'] },
  { name: 'Spitalfields Market', street: 'Commercial Street', at: 0.6, side: 0, kind: 'market',
    buildings: ['Horner Buildings', 'Market hall', 'Flower market', 'Fruit and wool exchange'] },
  { name: 'Whitechapel Gallery', street: 'Whitechapel High Street', at: 0.8, side: 0, kind: 'public',
    buildings: ['Whitechapel Gallery', 'Former Passmore Edwards Library'] },
  { name: 'East London Mosque', street: 'Whitechapel Road', at: 0.45, side: 1, kind: 'mosque',
    buildings: ['East London Mosque', 'London Muslim Centre', 'Maryam Centre'] },
  { name: 'Rothschild Buildings', street: 'Flower and Dean Walk', at: 0.5, side: 1, kind: 'housing',
    buildings: ['Rothschild Buildings, north block', 'Rothschild Buildings, south block', 'Charlotte de Rothschild Dwellings'] },
  { name: 'Albion Brewery', street: 'Whitechapel Road', at: 0.62, side: 0, kind: 'brewery',
    buildings: ['Albion Brewery', 'Brewery offices', 'Malt house', 'Cooperage'] },
  { name: 'Whitechapel Station', street: 'Durward Street', at: 0.6, side: 1, kind: 'public',
    buildings: ['Whitechapel Station', 'Station booking hall', 'Elizabeth line entrance'] },
  { name: 'Swanlea School', street: 'Brady Street', at: 0.3, side: 0, kind: 'school',
    buildings: ['Swanlea School', 'Swanlea School sports hall', 'Swanlea School sixth form'] },
  { name: 'Christ Church Spitalfields', street: 'Fournier Street', at: 0.1, side: 1, kind: 'church',
    buildings: ['Christ Church', 'Rectory', 'Christ Church Hall', 'Christ Church School'] },
  { name: "Jews' Free School", street: 'Bell Lane', at: 0.5, side: 0, kind: 'school',
    buildings: ["Jews' Free School", 'Infants’ School', 'Boys’ School'] },
  { name: 'Peabody Buildings', street: 'Commercial Street', at: 0.35, side: 1, kind: 'housing',
    buildings: ['Peabody Buildings, block A', 'Peabody Buildings, block B', 'Peabody Buildings, block C'] },
  { name: 'Wickhams', street: 'Mile End Road', at: 0.15, side: 0, kind: 'shop',
    buildings: ['Wickhams department store', 'Spiegelhalter’s shop'] },
];

/** Postcode unit letters (the ones Royal Mail uses). */
export const UNIT_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
