package redact

// addrTowns are folded words of towns and cities (Spanish municipalities of some size, in their
// Spanish, Catalan, Galician and Basque names, and the European and American cities branch
// customers come from) that the address grammar accepts typed in lower case, or before a
// postcode ("en Lugo 27002"), where an unknown word would not do. Only the address grammar reads
// them: a name that is also a town stays a name everywhere else. Words of several-word towns are
// listed one by one ("palmas", "canaria"); the grammar joins them.
var addrTowns = words(`
alava albacete alcobendas alcorcon algeciras alicante alacant almeria altea amsterdam andorra antequera aranjuez
arganda arrecife aviles ayamonte badalona badajoz baracaldo barakaldo barcelona basauri benalmadena benicarlo
benidorm berlin bilbao blanes boadilla bruxelles brussels burgos burjassot caceres cadiz calahorra calella
calpe calp cambrils canaria canarias cartagena castello castellon castelldefels cerdanyola chiclana ciudad
ciutadella collado colmenar cordoba cornella coslada cuenca denia dos hermanas donostia dublin durango eibar
eivissa elche elx ecija ejido estepona ferrol figueres fuengirola fuenlabrada gandia gava getafe getxo gijon
girona granada granollers guadalajara guadaira hermanas hospitalet huelva huesca ibiza igualada irun jaen
javea xabia jerez lanzarote leganes leon lisboa lleida logroño london londres lorca lugo lyon madrid
mahon majadahonda malaga manacor manresa marbella mataro merida mieres mijas mollet monforte motril mostoles
munich munchen murcia naron ourense oviedo palencia palma palmas pamplona iruña paris parla paterna pinto
pollença ponferrada pontevedra portugalete porto pozuelo puertollano reus rivas roma ronda roquetas rubi
sabadell sagunto sagunt salamanca salou san santa sant santander santiago segovia sevilla siero sitges soria
talavera tarragona tarrasa terrassa telde tenerife teruel toledo torrejon torrelavega torremolinos torrent
torrevieja tortosa tudela utrera valdemoro valencia valladolid velez vic vigo vila vilanova viladecans
vilagarcia villaviciosa vinaros vitoria gasteiz bilbo iruna zamora zaragoza ordes carballo lalin betanzos cambre arteixo
oleiros redondela cangas marin ribeira santurtzi sestao leioa erandio zarautz hernani errenteria lasarte
tolosa azpeitia bergara mondragon arrasate hondarribia hendaye bayonne biarritz toulouse marseille bordeaux
porto braga coimbra faro milano torino napoli firenze bologna genova koln hamburg frankfurt stuttgart
rotterdam utrecht antwerpen gent bruges manchester birmingham liverpool leeds glasgow edinburgh cardiff
belfast cork galway limerick bucuresti warszawa krakow kyiv casablanca rabat tanger quito bogota lima caracas
medellin guayaquil asuncion montevideo miami york boston chicago houston austin
villanueva villafranca villarreal vilafranca castelldefels mataro despi llobregat
alzira ontinyent xativa mislata alaquas aldaia manises paiporta catarroja sueca cullera elda petrer
mojacar nerja almuñecar almunecar competa frigiliana torrox manilva benahavis mazarron aguilas garrucha pulpi
moraira teulada benissa pedreguer ondara oliva guardamar rojales orihuela horadada alcazares campello villajoyosa
vilajoyosa finestrat alfas albir polop nucia llucmajor soller andratx calvia alcudia santanyi adeje arona yaiza
teguise corralejo mogan alhaurin
buenos aires rosario mendoza tucuman valparaiso montevideo asuncion villena novelda
orihuela crevillent alcoi alcoy vinaroz burriana borriana benicassim montcada cugat esplugues martorell molins masnou
pineda lloret olot banyoles palafrugell amposta vendrell sanlucar chipiona lebrija mairena marchena osuna
lucena montilla priego baena andujar linares ubeda baeza martos almunecar guadix armilla maracena nijar adra vicar
huercal nerja alhaurin cartama almonte moguer galapagar navalcarnero ciempozuelos astorga benavente aranda arona adeje
orotava granadilla icod aguimes arucas galdar mogan llucmajor calvia marratxi felanitx culleredo boiro cambados sanxenxo
moaña ponteareas porriño viveiro burela verin xinzo carballino langreo castrillon laviana camargo pielagos laredo beasain azkoitia
oñati andoain pasaia zumaia zumarraga galdakao gernika bermeo mungia amorebieta llodio laudio amurrio lizarra barañain
burlada villava tafalla calatayud ejea monzon barbastro fraga alcañiz alcaniz utebo tomelloso valdepeñas valdepenas hellin villarrobledo
almansa azuqueca plasencia almendralejo zafra navalmoral alcantarilla mazarron yecla jumilla totana caravaca arnedo ripollet sabinanigo benissa
teulada xirivella torrelodones villalba`)

// townPrefixes open a town's name that goes on without a particle ("santa cruz de tenerife",
// "san sebastian de los reyes", "vilanova i la geltru"), so a second lower-case word may follow.
var townPrefixes = words(`san santa sant santo sao são vila villa torre puerto port gran alcala ciudad dos mont
	castell sankt saint st`)

// homeCues say that what follows is where someone lives: a postcode and a town typed in lower case
// after one is an address ("vive en 38003 santa cruz de tenerife").
var homeCues = []string{"vive", "vivo", "viven", "reside", "resido", "mudad", "mudó", "muda", "domicili", "direcci",
	"address", "lives", "living", "moved", "viu ", "viuen", "adreça", "adreca", "enderezo", "helbide", "bizi",
	"empadronad", "vecin", "veí", "veï", "residencia"}
