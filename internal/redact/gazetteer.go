package redact

import "strings"

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
}

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
`)

// Particles that may join the parts of a name ("María de la Rosa", "Pau i Puig").
var nameParticles = words(`de del la las los y i van von da das do dos e`)

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
