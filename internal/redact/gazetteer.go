package redact

import (
	_ "embed"
	"strings"
)

// The gazetteer is deliberately in-process and small: it must work with no model server, and
// it only has to catch the common case (a capitalised given name followed by surnames, or any
// capitalised words after an honorific). Names it misses are what the NER backend is for.

var givenNames = words(`
antonio jose manuel francisco david juan javier daniel carlos jesus alejandro miguel rafael pedro pablo
angel sergio fernando jorge luis alberto alvaro adrian diego raul enrique ramon vicente ivan ruben oscar
andres joaquin santiago eduardo victor roberto jaime mario ignacio alfonso salvador ricardo marcos jordi
emilio julian guillermo gabriel tomas agustin gonzalo felix hugo lucas martin nicolas cristian samuel
maria carmen ana isabel laura cristina marta dolores francisca lucia antonia pilar elena paula sara
mercedes raquel manuela rosa concepcion teresa julia beatriz silvia alba irene patricia nuria rocio
andrea montserrat monica sonia alicia angela marina claudia noelia sofia carla natalia veronica eva
inmaculada lorena susana yolanda esther amparo sandra margarita victoria ines miriam olga celia
josep joan pere marc pau jaume xavier albert oriol arnau montse merce nuria nuri laia jordina roser
mireia anna gemma nerea aitor iker unai mikel jon asier gorka ander eneko xabier iñaki ainhoa leire
amaia maite itziar idoia garazi edurne iria xoan xose brais anxo uxia antia noa sabela xiana
john james robert michael william david richard joseph thomas charles christopher daniel matthew
anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason
tom tommy bill bob jim mike dave kate liz jenny sam ben joe dan nick chris alex
paco pepe nacho lola charo pili manolo quique rafa chema fran toni xavi txema
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret
sandra ashley kimberly emily donna michelle carol amanda melissa deborah stephanie rebecca sharon
laura cynthia kathleen amy angela helen anna emma olivia sophie charlotte oliver harry jack george
`)

var surnames = words(`
garcia rodriguez gonzalez fernandez lopez martinez sanchez perez gomez martin jimenez ruiz hernandez
diaz moreno muñoz alvarez romero alonso gutierrez navarro torres dominguez vazquez ramos gil ramirez
serrano blanco molina morales suarez ortega delgado castro ortiz rubio marin sanz nuñez iglesias
medina garrido cortes castillo santos lozano guerrero cano prieto mendez cruz calvo gallego herrera
marquez leon vidal peña flores cabrera campos vega fuentes carrasco diez caballero reyes nieto aguilar
pascual santana herrero lorenzo montero hidalgo gimenez ibañez ferrer duran santiago benitez mora
vicente vargas arias carmona crespo roman pastor soto saez velasco moya soler parra esteban bravo
gallardo rojas pujol puig vila serra font roca coll ferrer sala mas riera bosch vives casas sole
prat batlle camps costa ribas oliver garriga rovira valls bonet
etxeberria goikoetxea agirre aguirre urrutia zubizarreta arrieta mendizabal iriarte larrañaga
otxoa gorostiza bengoetxea olabarria uriarte elorza aranburu ibarra
castro otero rivas fraga carballo pereira varela rey vilar lema souto barreiro seoane lago mosquera
smith johnson williams brown jones miller davis wilson anderson taylor thomas moore jackson white
harris clark lewis robinson walker young allen king wright scott hill green adams baker nelson
carter mitchell roberts turner phillips campbell parker evans edwards collins stewart morris murphy
cook rogers morgan cooper peterson reed bailey bell kelly howard ward cox richardson wood watson
`)

// The large lists (issue #13) are embedded text: given names and hypocorisms, and surnames,
// Spanish (with Catalan, Galician and Basque), Latin-American and the most common foreign ones
// in Spain. They are read case-insensitively, folded like the text's words.
var (
	//go:embed gazetteer/given.txt
	givenList string
	//go:embed gazetteer/surnames.txt
	surnameList string
)

func init() {
	addList(givenNames, givenList)
	addList(surnames, surnameList)
	for w := range lowerAmbiguous {
		lowerAmbiguous[fold(w)] = true
	}
	buildLexicon()
}

// Word classes: one lookup per word in lexicon gives every set the word belongs to, so that
// the name and address rules read a word's classes without a map access each.
const (
	lexGivenNames uint32 = 1 << iota
	lexSurnames
	lexNotNames
	lexNameParticles
	lexLowerAmbiguous
	lexPlaces
	lexStreetTypeWords
	lexAreaWords
	lexPostfixStreetWords
	lexSuffixStreetWords
	lexUnitWords
	lexFloorWords
	lexAddrStop
	lexCompanyWords
	lexLowerCues
	lexCapsParticles
	lexStreetWords
	lexCue
	lexInstitution
	lexNameStop
	lexPublicRole
	lexZhSurname
	lexGreeting
	lexAddressCue // a verb right before a name in addressedLower/addressedCap (ask, llamó, venido…)
	lexR6Cue      // a word a round-6 rule starts from: kinLower, surnameKeysLoose, articlePersonVerbs, spokeVerbsEN, closingLast
	lexR7Cue      // a word a round-7 rule starts from: r7Closings, r7KinComma, r7MessageNouns, r7Alias, honorifics
	lexR8Cue      // a word a round-8 rule starts from: handle cues, person keys, name questions, centre heads
	lexR9Cue      // a word a round-9 rule starts from: r9Cues (a name runs after it) and r9Sir (jauna, andrea)
)

// lexTable maps a folded word to its classes in an open-addressing table of 64-bit slots, 128 KiB
// in all (about two fifths full, small enough to stay in cache): a slot holds the
// top 36 bits of the word's FNV-1a hash and its 28 class bits (lexClassBits); the low bits of the
// hash pick the slot. One probe, no key bytes to compare. With about seven thousand words, the chance that another word of a text shares a
// tag and a slot with one of them is about 1e-8 per word (36 bits of tag, 14 of slot).
const (
	lexSlots     = 1 << 14
	lexClassBits = 28
	lexClassMask = 1<<lexClassBits - 1
)

var lexTable [lexSlots]uint64

func lexTag(h uint64) uint64 {
	t := h &^ lexClassMask
	if t == 0 {
		t = 1 << lexClassBits
	}
	return t
}

func lexLookup(f []byte) uint32 {
	h := fnv64(f)
	t := lexTag(h)
	for i := h & (lexSlots - 1); ; i = (i + 1) & (lexSlots - 1) {
		switch v := lexTable[i]; {
		case v&^lexClassMask == t:
			return uint32(v & lexClassMask)
		case v == 0:
			return 0
		}
	}
}

func lexInsert(w string, cls uint32) {
	h := fnv64([]byte(w))
	t := lexTag(h)
	for i := h & (lexSlots - 1); ; i = (i + 1) & (lexSlots - 1) {
		if v := lexTable[i]; v == 0 || v&^lexClassMask == t {
			lexTable[i] = t | uint64(cls)&lexClassMask
			return
		}
	}
}

func buildLexicon() {
	lexicon := map[string]uint32{}
	defer func() {
		if len(lexicon) > lexSlots*3/4 || lexR9Cue >= 1<<lexClassBits {
			panic("redact: lexicon larger than its table, or more classes than its class bits")
		}
		for w, c := range lexicon {
			lexInsert(w, c)
		}
	}()
	for _, s := range []struct {
		set  map[string]bool
		flag uint32
	}{
		{givenNames, lexGivenNames},
		{surnames, lexSurnames},
		{notNames, lexNotNames},
		{nameParticles, lexNameParticles},
		{lowerAmbiguous, lexLowerAmbiguous},
		{places, lexPlaces},
		{streetTypeWords, lexStreetTypeWords},
		{areaWords, lexAreaWords},
		{postfixStreetWords, lexPostfixStreetWords},
		{suffixStreetWords, lexSuffixStreetWords},
		{unitWords, lexUnitWords},
		{floorWords, lexFloorWords},
		{addrStop, lexAddrStop},
		{companyWords, lexCompanyWords},
		{lowerCues, lexLowerCues},
		{capsParticles, lexCapsParticles},
		{streetWords, lexStreetWords},
		{institutionHeads, lexInstitution},
		{brandHeads, lexInstitution | lexNotNames},
		{nameStops, lexNameStop},
		{publicRoles, lexPublicRole},
		{zhSurnames, lexZhSurname},
		{greetings, lexGreeting},
	} {
		for w := range s.set {
			lexicon[w] |= s.flag
		}
	}
	for _, set := range []map[string]bool{addressVerbsEN, arrivalVerbs, arrivalAfterHa} {
		for w := range set {
			lexicon[fold(w)] |= lexAddressCue
		}
	}
	for _, set := range []map[string]bool{kinLower, surnameKeysLoose, articlePersonVerbs, spokeVerbsEN, closingLast} {
		for w := range set {
			lexicon[fold(w)] |= lexR6Cue
		}
	}
	for _, set := range []map[string]bool{r7Closings, r7KinComma, r7MessageNouns, r7Alias, honorifics} {
		for w := range set {
			lexicon[fold(w)] |= lexR7Cue
		}
	}
	for _, set := range []map[string]bool{r8HandleCues, r8PersonKeys, nameFieldKeys, r8NameQuestions, r8Heads} {
		for w := range set {
			lexicon[fold(w)] |= lexR8Cue
		}
	}
	for w := range r8KeyRest {
		if len(w) >= 4 { // a key's last word ("Titular del compte:"); the short ones only join a key
			lexicon[fold(w)] |= lexR8Cue
		}
	}
	for _, set := range []map[string]bool{r9Cues, r9Sir} {
		for w := range set {
			lexicon[w] |= lexR9Cue // already folded
		}
	}
	for w := range greetings2 {
		first, _, _ := strings.Cut(w, "|")
		lexicon[first] |= lexGreeting // the first word of a two-word greeting
	}
	for w := range nameCues {
		lexicon[fold(w)] |= lexCue
		lexicon[w] |= lexCue
	}
}

// addList adds the folded words of list (lines starting with # are comments) to m.
func addList(m map[string]bool, list string) {
	for _, line := range strings.Split(list, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, w := range strings.Fields(line) {
			m[fold(w)] = true
		}
	}
}

// lowerAmbiguous are given names that are also everyday words ("rosa", "pilar", "julio", "will"):
// in lower case they are a name only after a cue (a greeting, "soy", "habla con", "mi hermana").
var lowerAmbiguous = words(`rosa pilar dolores nieves mar luz paz sol cruz angel angeles victoria amparo mercedes consuelo
esperanza gloria soledad rocio carmen concepcion asuncion encarnacion remedios pastora reyes socorro milagros alba aurora
blanca clara celeste estrella flor iris jade paloma perla violeta azucena margarita salud piedad caridad fe trinidad
natividad purificacion rosario guadalupe montserrat candelaria belen africa abril lara vega leon salvador santiago santos
jesus tomas julio marcos domingo lucas pau jan ben will mark bill joy may june april rose grace hope faith dean don guy
art sam ara gala nora nina ana eva gil mas mata mira moral fina vera oliva paz sara victor justo primitivo modesto
severo segundo clemente prudencia constante amador inocencio vidal oscar ivan andres pablo celia lola pepa ramona maxima
martina dorada real bella hugo bruno mario noel dani angela dana adan enero febrero maria marina rocio lia emilia
alma ali li wei fang jing min jun lei yan ling hui ying hong xin jie ming yu ma sun he lin hu du su lu ye ding
a o e i u y de la el en un una son said chance hunter summer dawn rob pat sue max bob jack frank grant chase
nacho pili loli mili mimi lili lali cuca fede gabi manu miki nene nico tito fer lu isa pepe
ella sole franco frances german bella buena nieve mayo sola
lady dulce lucero nil lluna heura estel lur hodei ilargi itxaso haizea segunda digna justa modesta librada iluminada
martirio patrocinio ventura urbano kelly mercedes nadal linda izan intza amets lorea galder
bayo dele wale ayo tolu titi
paca tomeu feliu narcis salvi rut pucho costin traian doina milena rafal beata travis tanner estelle doris linnea caio
thais delfin zoilo placida presentacion humildad cristino fructuoso amir saima sana anas aiden matt terry jasmine
seren tomos`)

// Honorifics and role words that announce a name. The value is the score a following run of
// capitalised words gets: an honorific is near-certain, a role word a little less.
var nameCues = map[string]float64{
	"sr": 0.9, "sra": 0.9, "srta": 0.9, "d": 0.85, "dña": 0.9, "dª": 0.9, "don": 0.9, "doña": 0.9,
	"señor": 0.85, "señora": 0.85, "dr": 0.9, "dra": 0.9, "mr": 0.9, "mrs": 0.9, "ms": 0.9,
	"miss": 0.85, "mx": 0.9, "cliente": 0.8, "clienta": 0.8, "titular": 0.8, "paciente": 0.8,
	"client": 0.8, "customer": 0.8, "patient": 0.8, "holder": 0.75, "demandante": 0.8,
	"demandado": 0.8, "demandada": 0.8, "abogado": 0.75, "abogada": 0.75, "letrado": 0.75,
	"letrada": 0.75, "notario": 0.75, "apoderado": 0.8, "beneficiario": 0.8, "beneficiaria": 0.8,
	"testigo": 0.8, "firmante": 0.8, "técnico": 0.7, "técnica": 0.7, "contacto": 0.7, "witness": 0.8,
	"claimant": 0.8, "defendant": 0.8, "signatory": 0.8, "technician": 0.7, "contact": 0.7,
	"née": 0.85, "nee": 0.85, "fdo": 0.85, "firmado": 0.8, "sgd": 0.8, "atentamente": 0.7,
	"sr.ª": 0.9, "sra.": 0.9, "dn": 0.85, "senyor": 0.85, "senyora": 0.85, "jauna": 0.85, "domnule": 0.85, "domnul": 0.85, "doamna": 0.85, "doamnă": 0.85,
	"herr": 0.85, "frau": 0.85, "monsieur": 0.85, "madame": 0.85, "mme": 0.85, "mlle": 0.85, "signor": 0.85,
	"signora": 0.85, "senhor": 0.85, "senhora": 0.85, "pan": 0.8, "pani": 0.8, "sr.": 0.9, "dr.": 0.9,
	// kinship words: "su hijo Pablo", "her son Owain", "mi mujer, Reyes"
	"hijo": 0.75, "hija": 0.75, "son": 0.75, "daughter": 0.75, "marido": 0.75, "mujer": 0.7, "esposo": 0.75,
	"esposa": 0.75, "husband": 0.75, "wife": 0.75, "hermano": 0.75, "hermana": 0.75, "brother": 0.75,
	"sister": 0.75, "nieto": 0.75, "nieta": 0.75, "sobrino": 0.75, "sobrina": 0.75, "pareja": 0.7,
	"partner": 0.7, "novio": 0.75, "novia": 0.75, "vecino": 0.75, "vecina": 0.75, "fill": 0.75, "filla": 0.75,
	"germà": 0.75, "germana": 0.75, "fillo": 0.75, "irmán": 0.75, "irmá": 0.75, "semea": 0.75,
	"muller": 0.75, "neta": 0.7, "neto": 0.7, "nét": 0.7, "néta": 0.7, "sogra": 0.7, "sogro": 0.7,
	"suegra": 0.7, "suegro": 0.7, "familia": 0.7, "family": 0.7, "doctor": 0.85, "doctora": 0.85, "doutor": 0.85, "doutora": 0.85,
	"metge": 0.8, "metgessa": 0.8, "infermera": 0.75, "infermer": 0.75, "enfermera": 0.75, "enfermero": 0.75, "nurse": 0.75,
	"matrona": 0.75, "fisioterapeuta": 0.75, "medikua": 0.8, "erizaina": 0.75, "cuñada": 0.7, "cuñado": 0.7, "cunyada": 0.7, "cunyat": 0.7, "pt": 0.75, "pte": 0.75,
	// parties to a case, a contract or an account: "la parte actora es …", "The lessee, …"
	"actora": 0.8, "recurrente": 0.8, "apelante": 0.8, "querellante": 0.8, "denunciante": 0.8,
	"perjudicado": 0.8, "perjudicada": 0.8, "arrendatario": 0.8, "arrendataria": 0.8, "arrendador": 0.8,
	"arrendadora": 0.8, "comprador": 0.8, "compradora": 0.8, "vendedor": 0.8, "vendedora": 0.8, "prestatario": 0.8,
	"prestataria": 0.8, "avalista": 0.8, "fiador": 0.8, "fiadora": 0.8, "cotitular": 0.8, "autorizado": 0.75,
	"autorizada": 0.75, "ordenante": 0.8, "deudor": 0.8, "deudora": 0.8, "heredero": 0.8, "heredera": 0.8,
	"causante": 0.8, "donante": 0.8, "lessee": 0.8, "lessor": 0.8, "tenant": 0.8, "landlord": 0.8, "borrower": 0.8,
	"guarantor": 0.8, "donor": 0.8, "grantor": 0.8, "buyer": 0.8, "seller": 0.8, "co-holder": 0.8, "attorney": 0.75,
	"tal": 0.75, "señores": 0.85, "sres": 0.85, "srs": 0.85, "senyors": 0.85, "attn": 0.85, "fao": 0.85, "atención": 0.8, "atencion": 0.8, "atenció": 0.8, "signed": 0.8, "signat": 0.8,
	"signada": 0.8, "asinado": 0.8, "asinada": 0.8, "sinatua": 0.8, "sinatzailea": 0.8,
	"llogater": 0.8, "llogatera": 0.8, "comprador/a": 0.8, "arrendatari": 0.8, "arrendatària": 0.8,
	// round 5: data-protection and deed parties, police ranks, drivers in claims, GL/EU parents
	"interesado": 0.8, "interesada": 0.8, "solicitante": 0.8, "compareciente": 0.8, "otorgante": 0.8,
	"sgt": 0.85, "insp": 0.85, "inspector": 0.8, "inspectora": 0.8, "constable": 0.85,
	"sergeant": 0.85, "officer": 0.75, "driver": 0.75, "conductor": 0.75, "conductora": 0.75,
	"pai": 0.75, "nai": 0.75, "aita": 0.75, "parella": 0.7,
	// round 6: policy holders, account managers, solicitors, Basque patients and customers
	"tomador": 0.8, "tomadora": 0.8, "asegurado": 0.8, "asegurada": 0.8, "gestor": 0.75, "gestora": 0.75,
	"barrister": 0.75, "gaixoa": 0.8, "bezeroa": 0.8, "tutor": 0.75, "tutora": 0.75,
}

// closingWords end a letter's closing line ("Kind regards,", "Un saludo,", "Salutacions,",
// "Ondo izan,"): a line of capitalised words alone after it is the signature.
var closingWords = []string{"regards", "saludo", "saludos", "atentamente", "cordialmente", "salutacions", "salutació",
	"saúdos", "saudos", "agurrak", "ondo izan", "besos", "abrazo", "abrazos", "cheers", "thanks", "thank you", "gracias",
	"grazas", "gràcies", "cordialement", "sincerely", "best", "wishes", "faithfully", "cordialment", "atentament", "aperta", "muxu"}

// headerWords are mail header keys that a sender's or recipient's name follows ("De: …", "From: …").
var headerWords = words(`de from para to cc cco bcc remitente destinatario`)

// Capitalised words that are not names: sentence starters, greetings, institutions and other
// words that often come in capitalised pairs ("Seguridad Social", "Banco de España").
var notNames = words(`
the a an in on at for from to of and or but please hi hello dear thanks thank this that these those
my our your his her their we you it is are was be with by as if when then there here what which who
el la los las un una unos unas mi mis su sus nuestro nuestra tu hola buenos buenas estimado estimada
gracias por para con sin en de del y o pero si cuando este esta estos estas ese esa aquel que quien
lunes martes miércoles miercoles jueves viernes sábado sabado domingo monday tuesday wednesday thursday
friday saturday sunday enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre
diciembre january february march april june july august september october november december
banco bank seguridad social hacienda agencia tributaria tesorería tesoreria general juzgado tribunal
supremo audiencia nacional provincial ministerio gobierno ayuntamiento comunidad generalitat junta
consejo registro civil mercantil propiedad colegio notarial hospital clínica clinica centro salud
servicio urgencias unidad departamento sección seccion área area dirección direccion oficina sucursal
caja rural europea europeo unión union visa mastercard american express google microsoft apple amazon
españa spain madrid barcelona valencia sevilla bilbao zaragoza málaga malaga
resumen summary nota note asunto subject re fwd urgente urgent
soy remind call email send ask tell contact contacta llama llamar escribe envía envia avisa pregunta
saluda atiende patient paciente cliente customer
original message mensaje forwarded reenviado enviado para cc asunto from sent subject
real decreto decreto-ley ley orgánica organica legislativo estatuto reglamento código codigo directiva artículo articulo
disposición disposicion constitución constitucion boletín boletin oficial act acts declarations statutory law regulation
primera instancia instrucción instruccion juzgado mercantil penal contencioso social juzgados tribunal sala fiscalía fiscalia
avenue road lane street court drive close way place square crescent terrace grove gardens park flat apt apartment
rue avenida calle kalea kale etorbidea etorb plaza paseo carrer rúa rua camino polígono poligono urbanización urbanizacion
barrio ronda glorieta travesía travesia carretera passeig avinguda plaça placa
gran vía via
sl sa slu sau slp cb ltd llc inc gmbh plc hotel bufete talleres construcciones promociones reformas limpiezas autos
concesionario allianz iberdrola whatsapp business travel clientes service services platinum oro infinite tarjeta classic gold
premium cuenta seguro seguros póliza poliza mutua asociados asociación asociacion abogados grupo fundación fundacion
hospital clínico clinico universitario clínic clinic sant santa puerta parque centro ambulatorio consultorio
virgen virxe verge
arrendamientos urbanos propiedad horizontal enjuiciamiento procedimiento
start begin end dear regards best kind warm yours sincerely i burger
french english british spanish italian portuguese moroccan romanian ukrainian chinese francés frances alemán aleman inglés ingles
customer support equipo team atención atencion cliente usuario usuaria agente bot sistema sistemas
banca privada empresas particulares facturación facturacion cobros recobros riesgos hipotecas nóminas nominas
contabilidad administración administracion recursos humanos rrhh comercial ventas compras marketing soporte informática
informatica calidad jurídico juridico asesoría asesoria operaciones incidencias reclamaciones care helpdesk accounts
payments billing sales operations compliance finance admin notifications noreply newsletter alerts avisos
notificaciones info información informacion secretaría recepción recepcion citaciones citas admisión admision gerencia
roja caritas cáritas unicef acnur handy festnetz mobil según segun segons dios
cardiologia traumatologia neurologia neumologia dermatologia oftalmologia ginecologia pediatria psiquiatria
urologia oncologia hematologia nefrologia digestivo endocrinologia reumatologia otorrinolaringologia radiologia
rehabilitacion fisioterapia enfermeria cirugia anestesia geriatria odontologia cardiology neurology dermatology
oncology radiology urology paediatrics pediatrics orthopaedics gynaecology psychiatry physiotherapy
`)

// sentenceWords open a sentence far more often than they are a surname alone ("Bueno, …",
// "Mira, …"); inside a name they are surnames like any other.
var sentenceWords = words(`bueno vale claro bien mira oye venga perfecto genial mesa pues nada`)

// places are Spanish regions, provinces and towns: a capitalised surname alone that is one of
// them is the place ("antes 46004 Valencia"); inside a full name it stays a surname.
var places = words(`santiago compostela gasteiz donostia bizkaia gipuzkoa araba navarra cantabria asturias galicia cataluña catalunya andalucía andalucia
alicante castellón castellon murcia toledo granada córdoba cordoba cádiz cadiz huelva jaén jaen almería almeria badajoz cáceres
caceres salamanca zamora león palencia burgos soria segovia ávila avila guadalajara cuenca albacete ciudad teruel huesca lleida
tarragona girona gerona lugo ourense pontevedra coruña oviedo gijón gijon santander logroño pamplona vitoria palma mallorca
menorca ibiza canarias tenerife palmas vigo elche cartagena alcalá alcala getafe móstoles mostoles leganés leganes fuenlabrada
marbella estepona torrevieja benidorm sagunto talavera mérida merida ponferrada ferrol reina plana valencia madrid barcelona sevilla bilbao zaragoza malaga málaga`)

// famous are public figures (folded full names): named in a news context ("según dijo", "en
// rueda de prensa", "coincidieron en el foro") they are public information, not a customer's
// personal data. Anywhere else they are names like any other.
var famous = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Split(`pedro sanchez|alberto nuñez feijoo|alberto nuñez feijóo|santiago abascal|yolanda diaz|
felix bolaños|maria jesus montero|nadia calviño|carlos cuerpo|pablo iglesias|irene montero|isabel diaz ayuso|
jose luis martinez-almeida|salvador illa|carles puigdemont|pere aragones|oriol junqueras|iñigo urkullu|imanol pradales|
juanma moreno|alfonso rueda|emiliano garcia-page|ximo puig|carlos mazon|fernando grande-marlaska|jose manuel albares|
margarita robles|teresa ribera|mariano rajoy|jose luis rodriguez zapatero|felipe gonzalez|jose maria aznar|
felipe vi|juan carlos i|letizia ortiz|leonor de borbon|ana botin|carlos torres|jose ignacio goirigolzarri|
gonzalo gortazar|onur genc|josep oliu|cesar gonzalez-bueno|pablo isla|amancio ortega|marta ortega|florentino perez|
ignacio galan|jose maria alvarez-pallete|marc murtra|jose bogas|josu jon imaz|antonio huertas|
pablo hernandez de cos|jose luis escriva|luis de guindos|christine lagarde|mario draghi|ursula von der leyen|
rafa nadal|rafael nadal|carlos alcaraz|fernando alonso|carlos sainz|pau gasol|andres iniesta|sergio ramos|
lionel messi|cristiano ronaldo|alexia putellas|aitana bonmati|luis enrique|pedro almodovar|penelope cruz|
antonio banderas|javier bardem|rosalia|alejandro sanz|shakira|enrique iglesias|julio iglesias|
joe biden|donald trump|kamala harris|barack obama|emmanuel macron|olaf scholz|giorgia meloni|keir starmer|rishi sunak|
boris johnson|vladimir putin|volodymyr zelensky|xi jinping|elon musk|jeff bezos|mark zuckerberg|bill gates|tim cook|
warren buffett|jerome powell|papa francisco|pope francis|leon xiv|
felipe de borbon|sofia de grecia|juan carlos de borbon|cristina de borbon|iñaki urdangarin|
miguel angel revilla|adrian barbon|jorge azcon|fernando lopez miras|alfonso fernandez mañueco|maria guardiola|
marga prohens|fernando clavijo|salvador illa|isabel rodriguez|oscar puente|elma saiz|pilar alegria|ernest urtasun|
sira rego|ana redondo|diana morant|luis planas|angel victor torres|mónica garcia|monica garcia|jordi hereu|
oscar lopez|fernando grande marlaska|cuca gamarra|ester muñoz|miguel tellado|ione belarra|alberto garzon|
ines arrimadas|albert rivera|gabriel rufian|aitor esteban|arnaldo otegi|mertxe aizpurua|ada colau|jaume collboni|
manuela carmena|esperanza aguirre|cristina cifuentes|francisco franco|adolfo suarez|leopoldo calvo-sotelo|
juan roig|sandra ortega|rafael del pino|florentino perez|ana patricia botin|emilio botin|francisco gonzalez|
isidro faine|jose maria aznar|carlos slim|christine lagarde|kristalina georgieva|
vinicius junior|kylian mbappe|jude bellingham|lamine yamal|pedri|gavi|xavi hernandez|iker casillas|
fernando torres|david villa|carles puyol|gerard pique|luka modric|jenni hermoso|alexia putellas|carolina marin|
mireia belmonte|garbiñe muguruza|paula badosa|marc marquez|jorge lorenzo|dani pedrosa|pau gasol|marc gasol|
ricky rubio|sergio scariolo|miguel indurain|alberto contador|
antonio banderas|penelope cruz|javier bardem|pedro almodovar|alejandro amenabar|paz vega|elsa pataky|
belen esteban|isabel pantoja|raphael|julio iglesias|enrique iglesias|alejandro sanz|david bisbal|pablo alboran|
rosalia vila|lola flores|camilo sesto|joaquin sabina|joan manuel serrat|dani rovira|david broncano|pablo motos|
jordi evole|ana rosa quintana|susanna griso|carlos herrera|arturo perez-reverte|javier marias|carlos ruiz zafon|
rosa montero|almudena grandes|eduardo mendoza|dolores redondo|joe biden|donald trump|kamala harris|
narendra modi|recep tayyip erdogan|benjamin netanyahu|pedro castillo|javier milei|gustavo petro|nicolas maduro|
claudia sheinbaum|andres manuel lopez obrador|lula da silva|gabriel boric|dina boluarte|nayib bukele|
pep guardiola|josep guardiola|vicente del bosque|carlo ancelotti|diego simeone|xabi alonso|
zinedine zidane|jose mourinho|hansi flick|sergio busquets|david de gea|alvaro morata|
aitana bonmati|jon rahm|seve ballesteros|mo salah|erling haaland|novak djokovic|
roger federer|serena williams|lewis hamilton|max verstappen|valentino rossi|usain bolt|michael jordan|lebron james|
tiger woods|simone biles|ilia topuria|alex palou|pau cubarsi|nico williams|
juan roig|isak andic|rafael del pino|ana botin|jose maria alvarez pallete|ignacio sanchez galan|
florentino perez|amancio ortega|sandra ortega|marta ortega|ortega y gasset|steve jobs|larry page|sergey brin|
sam altman|satya nadella|sundar pichai|jensen huang|bernard arnault|richard branson|larry ellison|
pedro duque|alvaro de marichalar|paquirri|bertin osborne|ana obregon|isabel preysler|tamara falco|
mario vargas llosa|gabriel garcia marquez|isabel allende|miguel de cervantes|federico garcia lorca|
pablo picasso|salvador dali|joan miro|antoni gaudi|santiago calatrava|rafael moneo|ferran adria|
karlos arguiñano|martin berasategui|juan mari arzak|
nacho cano|miguel bose|luz casal|alaska|c tangana|quevedo|bad bunny|aitana ocaña|lola indigo|
king charles|prince william|princess kate|queen elizabeth|taylor swift|beyonce|lionel messi|cristiano ronaldo`, "|") {
		m[fold(strings.TrimSpace(n))] = true
	}
	return m
}()

// newsWords are what a news sentence about a public figure says around the name.
var newsWords = []string{"según", "segun", "dijo", "declaró", "declaro", "afirmó", "afirmo", "anunció", "anuncio", "prensa",
	"congreso", "senado", "noticia", "periódico", "periodico", "entrevista", "foro", "coincidieron", "presidente",
	"presidenta", "ministro", "ministra", "consejero delegado", "ceo", "boletín", "boletin", "comunicado", "titular de",
	"news", "said", "announced", "according to", "press", "interview", "minister", "president", "parlamento", "rueda",
	"segons", "premsa", "diari", "va anunciar", "va dir", "xornal", "prensa", "prentsa", "telediario", "informativo",
	"headline", "reported", "bbc", "titular:", "titulares", "ha declarado", "declaracions", "declaracións",
	"inauguró", "inauguro ", "inaugura", "inaugurar", "tele ", "televisión", "television", "la tv", "on tv", " radio ",
	"la ràdio", "falaban de", "hablaban de", "parlaven de", "salía en", "salia en", "surt a", "fichaje",
	"on the news", "in the news", "news:", "documental", " gira ", "concierto", "concert"}

// institutionHeads are the words that open an institution's or a shop's name: a name right after
// them, in the same run of capitalised words, is the institution's ("Hospital Álvaro Cunqueiro",
// "Fundación Jiménez Díaz", "Clínica Dental Ortiz", "HOSPITAL GENERAL UNIVERSITARIO GREGORIO
// MARAÑÓN"), not a person's.
var institutionHeads = words(`hospital hospitales hospitalario clinica clinicas clinic policlinica sanatorio ambulatorio
consultorio fundacion fundacio fundazioa notaria residencia colegio col·legi collegi instituto institut institutua
universidad universitat unibertsitatea escuela escola ies ceip farmacia botica centro centre laboratorio laboratorios
optica dental bufete gabinete asesoria gestoria parroquia iglesia catedral teatro museo museu estadio aeropuerto
estacion biblioteca polideportivo auditorio palacio premio premios catedra hotel restaurante bar cafeteria
colexio ospitalea ikastetxea residencial teatre estadi aeroport auditori palau pabellon pavello poliesportiu
ikastola transportes transports talleres tallers construcciones construccions reformas limpiezas excavaciones
promociones inmobiliaria immobiliaria distribuciones industrias hermanos hnos germans propietarios propietaris
ferreteria carpinteria panaderia pasteleria fruteria carniceria peluqueria autoescuela bodegas viveros
supermercados almacenes electricidad fontaneria cristaleria gestoria muebles mobles autocares autobuses gruas pinturas
maderas aluminios cerrajeria motos recambios neumaticos electrodomesticos joyeria relojeria libreria papeleria
floristeria viajes academia imprenta lavanderia tintoreria mudanzas calzados confecciones carnicas embutidos
conservas cafes vinos aceites
royal servizo servei zerbitzua parador paradores`)

// brandHeads are health services, insurers, banks and large companies: words that are no name
// and open an institution's name ("Osakidetza Basurto", "Mapfre España"). Round 5.
var brandHeads = words(`osakidetza sergas osasunbidea sacyl sescam sespa ibsalut insalud
mapfre allianz axa sanitas adeslas asisa dkv caser generali ocaso mutua helvetia
bbva caixabank bankinter unicaja ibercaja abanca kutxabank cajamar iberdrola endesa naturgy repsol
telefonica movistar vodafone mercadona inditex
barclays lloyds natwest hsbc halifax nationwide monzo revolut starling hmrc dvla sabadell bankia openbank citibank
paypal amazon google microsoft`)

// brands are companies and shops named after a person (folded full names): a span that is one of
// them is the brand, in any context ("cargo de Rosa Clará", "paid to John Lewis").
var brands = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Split(`rosa clara|john lewis|massimo dutti|carolina herrera|adolfo dominguez|purificacion garcia|
roberto verino|victorio lucchino|agatha ruiz de la prada|pepe jeans|tommy hilfiger|calvin klein|ralph lauren|hugo boss|
marc jacobs|michael kors|kate spade|ted baker|paul smith|stella mccartney|christian dior|yves saint laurent|louis vuitton|
giorgio armani|jean paul gaultier|oscar de la renta|vera wang|tory burch|john deere|paco rabanne|sergio tacchini|
marie claire|jose cuervo|juan valdez|tio pepe|don simon|marques de riscal|jorge juan|carlos sainz|mario bros|
ronald mcdonald|tim hortons|max mara|salvatore ferragamo|emilio pucci|elena miro|laura ashley|tom ford|ana sousa|
rosa mexicano|kiko milano|tomas lorenzo|jesus del pozo|custo barcelona|desigual|natura bisse|aristocrazy|
marks and spencer|marks spencer|harvey nichols|john frieda|david lloyd|dunkin donuts|jack daniels|johnnie walker|
jim beam|william grant|ballantines|baileys|jose luis|pans company`, "|") {
		m[fold(strings.TrimSpace(n))] = true
	}
	return m
}()

// nameStops are everyday words that end a name read in lower case after an introduction or a
// role word ("se llama así", "me llamo igual que", "el cliente juan dice,"): a lower-case word
// that is none of these, nor sentence furniture, may be an unknown surname there.
var nameStops = words(`asi igual como que porque pero tambien ya siempre nunca mañana hoy ayer luego despues antes
ahora aqui alli ahi al a por para desde hasta en con sin sobre entre segun cuando donde mucho poco muy mas menos bien
mal solo sola todo toda todos nada algo alguien nadie usted ustedes el ella ellos ellas le lo la les los me te se nos
os mi tu su sus and the of to for from at in on is was like as so because but also y e i o u ni dice dijo quiere
pide llama llamo viene vino esta estaba tiene tenia ha habia es era son fue va iba puede debe necesita quiere
dice diu vol te ten quere di says said wants needs has is was will can de del da do das dos un una uno unos unas
senor señor señora senora don doña sr sra años anos año ano mes dia semana dias tarde noche otra otro vez casa
cuenta tarjeta prestamo hipoteca recibo cita numero telefono correo dni nie pasaporte nacido nacida natural
vecino vecina esposa esposo marido mujer hijo hija padre madre hermano hermana`)

// publicRoles are public offices: a name right after one, in a sentence that reports what was
// said or announced, is a public figure in the news ("el ministro Óscar Puente anunció ayer"),
// whether or not famous lists them.
var publicRoles = words(`ministro ministra presidente presidenta vicepresidente vicepresidenta alcalde alcaldesa
conseller consellera conselleiro conselleira consejero consejera diputado diputada senador senadora portavoz
lehendakari sailburua alkatea rey reina papa principe princesa chancellor minister president
senator governor premier ministre`)

// newsVerbs say that a sentence reports a public statement.
var newsVerbs = []string{"anunció", "anuncio ", "anunciado", "dijo", "declaró", "declaro ", "afirmó", "aseguró",
	"explicó", "señaló", "según", "segun ", "rueda de prensa", "comunicado", "entrevista", "said", "announced",
	"told", "stated", "according to", "va declarar", "va anunciar", "va dir", "segons", "declarou", "anunciou",
	"dixo", "afirmou", "esan du", "adierazi", "iragarri", "presentó", "defendió", "congreso", "parlamento",
	"parlament", "senado", "parliament", "commons", "anunciar", "declarar"}

// Particles that may join the parts of a name ("María de la Rosa", "Pau i Puig").
var nameParticles = words(`de del la las los y i van von da das do dos e der den ter`)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// fold lower-cases and strips the accents Spanish, Catalan, Galician and Basque names carry,
// so that "José" and "Jose" are one entry.
func fold(s string) string {
	if isASCII(s) {
		if !hasUpperASCII(s) {
			return s // the common case costs no allocation
		}
		return strings.ToLower(s)
	}
	s = strings.ToLower(s)
	return accentFolder.Replace(s)
}

// accents are the replacements of fold, as old/new pairs (names.go's latin1Fold reads them too).
var accents = []string{"á", "a", "à", "a", "ä", "a", "â", "a", "é", "e", "è", "e", "ë", "e",
	"ê", "e", "í", "i", "ì", "i", "ï", "i", "ó", "o", "ò", "o", "ö", "o", "ô", "o", "ú", "u", "ù", "u", "ü", "u",
	"ç", "c", "l·l", "ll"}

var accentFolder = strings.NewReplacer(accents...)

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
