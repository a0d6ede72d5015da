package corpus

// Templates by language and domain. {TYPE} is a labelled value, {TYPE!} the same with a wrong
// check digit (typed by mistake: still personal data), {d:KIND} a decoy. Meeting dates never
// sit near birth words, and decoys never near the context words of a type they resemble.
var templates = map[string]map[string][]string{
	"es": {
		"bank": {
			"Hola, soy el Sr. {PERSON}, con DNI {DNI}. Quiero transferir {d:AMOUNT} desde mi cuenta {IBAN} antes del {d:MEETING}.",
			"Redacta una carta para la clienta Dña. {PERSON} (NIE {NIE}) confirmando la cancelación de la tarjeta {CARD}.",
			"El titular {PERSON} llamó desde el {PHONE} por un cargo de {d:AMOUNT} en la tarjeta {CARD}. Referencia {d:ORDER}.",
			"Necesito un resumen del préstamo de {PERSON}, nacido el {DOB}, domicilio en {ADDRESS}. Cuota: {d:AMOUNT}.",
			"Prepara un correo a {EMAIL} indicando que la transferencia {d:ORDER} de {d:AMOUNT} se abonará en {IBAN}.",
			"La empresa con CIF {CIF} pide ampliar la póliza; contacto: {PERSON}, móvil {PHONE}, correo {EMAIL}.",
			"Comprueba si el DNI {DNI!} del cliente es correcto; lo dictó por teléfono y la cita es el {d:MEETING}.",
			"Cliente {PERSON}, pasaporte {PASSPORT}, quiere abrir una cuenta; trae nómina de {d:AMOUNT}.",
			"Tras el acceso desde la IP {IP}, bloquea la tarjeta {CARD!} de la titular {PERSON}.",
			"Actualiza la dirección de D. {PERSON}: ahora vive en {ADDRESS}. Teléfono de contacto {PHONE}.",
		},
		"clinic": {
			"Paciente {PERSON}, fecha de nacimiento {DOB}, NSS {NSS}. Solicita cita con traumatología el {d:MEETING}.",
			"Redacta el informe de alta de la paciente {PERSON} (DNI {DNI}), domicilio {ADDRESS}.",
			"Llama al {PHONE} para recordar a {PERSON} la revisión del {d:MEETING}; el copago es de {d:AMOUNT}.",
			"Envía los resultados al correo {EMAIL} de la Sra. {PERSON}. Número de afiliación a la Seguridad Social {NSS}.",
			"La Dra. {PERSON} pide el historial del paciente con NIE {NIE}; pedido de material {d:PRODUCT}.",
			"Resumen: paciente de 45 años, nacida el {DOB}, alérgica a la penicilina, tel. {PHONE}.",
			"Factura {d:ORDER} de {d:AMOUNT} a nombre de {PERSON}, pagada con tarjeta {CARD}.",
			"El equipo {IP} de la consulta no imprime; el técnico es {PERSON}, móvil {PHONE}.",
		},
		"law": {
			"Redacta un poder notarial a favor de D. {PERSON}, con DNI {DNI}, domiciliado en {ADDRESS}.",
			"En el procedimiento {d:CASE}, la demandante {PERSON} reclama {d:AMOUNT}; su cuenta es {IBAN}.",
			"Resume el contrato entre la sociedad con CIF {CIF} y el Sr. {PERSON}, firmado el {d:MEETING}.",
			"Cita al cliente {PERSON} (móvil {PHONE}, correo {EMAIL}) para revisar los autos {d:CASE}.",
			"El testigo {PERSON}, nacido el {DOB}, con pasaporte {PASSPORT}, declarará el {d:MEETING}.",
			"Prepara la demanda: demandado {PERSON}, NIE {NIE}, última dirección conocida {ADDRESS}.",
			"El DNI {DNI!} que aparece en la escritura parece erróneo; la firmante es {PERSON}.",
			"Honorarios de {d:AMOUNT} por el asunto {d:CASE}, a cargar en la cuenta {IBAN} de {PERSON}.",
		},
	},
	"en": {
		"bank": {
			"Hi, I'm Mr {PERSON}. Please move {d:AMOUNT} from my account {IBAN} before {d:MEETING}.",
			"Write to our customer {PERSON} at {EMAIL} about the new card {CARD} and order {d:ORDER}.",
			"The account holder {PERSON} called from {PHONE} about a {d:AMOUNT} charge on card {CARD}.",
			"Summarise the mortgage file of {PERSON}, born {DOB}, living at {ADDRESS}.",
			"Customer {PERSON} (passport {PASSPORT}) wants to open an account; salary {d:AMOUNT}.",
			"After the login from IP {IP}, freeze the card {CARD!} of Ms {PERSON}.",
			"The company with tax id {CIF} asks for a credit line; contact {PERSON}, phone {PHONE}.",
			"Check the ID card number DNI {DNI} of Mrs {PERSON} against order {d:ORDER}.",
		},
		"clinic": {
			"Patient {PERSON}, date of birth {DOB}, social security NSS {NSS}. Book orthopaedics on {d:MEETING}.",
			"Draft the discharge letter for patient {PERSON}, DNI {DNI}, address {ADDRESS}.",
			"Call {PHONE} to remind {PERSON} of the check-up on {d:MEETING}; co-payment {d:AMOUNT}.",
			"Email the lab results to {EMAIL} for Mrs {PERSON}.",
			"Dr {PERSON} asks for the records of the patient with NIE {NIE}; supplies order {d:PRODUCT}.",
			"Invoice {d:ORDER} of {d:AMOUNT} for {PERSON}, paid with card {CARD}.",
			"The workstation {IP} cannot print; the technician is {PERSON}, mobile {PHONE}.",
		},
		"law": {
			"Draft a power of attorney for Mr {PERSON}, DNI {DNI}, residing at {ADDRESS}.",
			"In case {d:CASE}, the claimant {PERSON} seeks {d:AMOUNT}; pay into account {IBAN}.",
			"Summarise the agreement between the company with tax id {CIF} and Ms {PERSON}, signed on {d:MEETING}.",
			"Schedule client {PERSON} (phone {PHONE}, email {EMAIL}) to review case {d:CASE}.",
			"The witness {PERSON}, born on {DOB}, passport {PASSPORT}, testifies on {d:MEETING}.",
			"The DNI {DNI!} on the deed looks wrong; the signatory is {PERSON}.",
			"Fees of {d:AMOUNT} for matter {d:CASE}, charged to account {IBAN} of client {PERSON}.",
		},
	},
}
