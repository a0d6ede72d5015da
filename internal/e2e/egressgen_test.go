package e2e

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// The egress property test's generator: OpenAI chat bodies with every field a client can send,
// random nesting, values planted in random written forms and splits, and random key casing.
// The checker that judges what reached the DC is written independently of package redact: it
// folds text with the standard library and x/text only.

// plant is one personal value put into a body.
type plant struct {
	kind, canon string // DNI, NIE, IBAN, CARD, PHONE, EMAIL; compact canonical value
	form, where string // how it was written and where, for failure reports
}

// genBody is one generated request and what the agent must do with it.
type genBody struct {
	body   []byte
	plants []plant
	stream bool
	// want is 200 (answered, everything redacted), 400 (a key in another casing: refused) or
	// 422 (a value planted in an identifier, which is never redacted: blocked at the exit).
	want int
	code string
}

// egressPassthrough is the operator-allowed field the generated agent accepts.
const egressPassthrough = "chat_template_kwargs"

type gen struct {
	v *corpus.Values
}

func (g *gen) pick(xs ...string) string { return xs[g.v.Intn(len(xs))] }

func (g *gen) value() (kind, canon string) {
	switch g.v.Intn(6) {
	case 0:
		return "DNI", g.v.DNI()
	case 1:
		return "NIE", g.v.NIE()
	case 2:
		return "IBAN", g.v.IBAN()
	case 3:
		return "CARD", g.v.Card()
	case 4:
		return "PHONE", g.v.Phone()
	}
	return "EMAIL", g.v.Email()
}

var (
	groupSeps = []string{" ", "\u00a0", "\u202f", "\u2009", "-", "–", " "}
	invisible = []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"}
)

// written returns canon in a random form a person or a program could produce.
func (g *gen) written(kind, canon string) (string, string) {
	forms := []string{"plain", "grouped", "fullwidth", "arabic", "invisible", "spaced", "grouped+fullwidth", "homoglyph"}
	if kind == "EMAIL" {
		forms = []string{"plain", "percent", "entity", "named-entity", "fullwidth-at", "invisible", "spaced", "homoglyph"}
	}
	form := g.pick(forms...)
	s := canon
	switch form {
	case "grouped", "grouped+fullwidth":
		s = g.grouped(kind, canon)
		if form == "grouped+fullwidth" {
			s = fullwidth(s)
		}
	case "fullwidth":
		s = fullwidth(canon)
	case "arabic":
		s = mapDigits(canon, '٠')
		if g.v.Chance(50) {
			s = mapDigits(canon, '۰')
		}
	case "invisible":
		at := 1 + g.v.Intn(utf8.RuneCountInString(canon)-1)
		s = insertAt(canon, at, g.pick(invisible...))
	case "spaced":
		s = strings.Join(strings.Split(canon, ""), " ")
	case "homoglyph":
		s = strings.NewReplacer("E", "Е", "A", "А", "o", "о", "a", "а", "e", "е", "c", "с").Replace(canon)
		if s == canon {
			s = fullwidth(canon)
		}
	case "percent":
		s = strings.Replace(canon, "@", "%40", 1)
	case "entity":
		s = strings.Replace(canon, "@", "&#64;", 1)
	case "named-entity":
		s = strings.Replace(canon, "@", "&commat;", 1)
	case "fullwidth-at":
		s = strings.Replace(canon, "@", "＠", 1)
	}
	return s, form
}

func (g *gen) grouped(kind, canon string) string {
	sep := g.pick(groupSeps...)
	var parts []string
	switch kind {
	case "DNI":
		if g.v.Chance(50) {
			return canon[:2] + "." + canon[2:5] + "." + canon[5:8] + "-" + canon[8:]
		}
		return canon[:8] + sep + canon[8:]
	case "NIE":
		return canon[:1] + sep + canon[1:8] + sep + canon[8:]
	case "PHONE":
		if g.v.Chance(50) {
			return canon[:3] + sep + canon[3:6] + sep + canon[6:]
		}
		return canon[:3] + sep + canon[3:5] + sep + canon[5:7] + sep + canon[7:]
	}
	for i := 0; i < len(canon); i += 4 {
		parts = append(parts, canon[i:min(i+4, len(canon))])
	}
	return strings.Join(parts, sep)
}

func fullwidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '!' && r <= '~' {
			return r - '!' + '！'
		}
		return r
	}, s)
}

func mapDigits(s string, zero rune) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return zero + r - '0'
		}
		return r
	}, s)
}

func insertAt(s string, runeIdx int, ins string) string {
	i := 0
	for k := range s {
		if i == runeIdx {
			return s[:k] + ins + s[k:]
		}
		i++
	}
	return s + ins
}

// splitPoint returns a byte offset strictly inside s between two non-space runes, or -1.
func (g *gen) splitPoint(s string) int {
	var cuts []int
	prev := rune(-1)
	for i, r := range s {
		if i > 0 && !unicode.IsSpace(prev) && !unicode.IsSpace(r) && unicode.In(prev, unicode.L, unicode.N) && unicode.In(r, unicode.L, unicode.N) {
			cuts = append(cuts, i)
		}
		prev = r
	}
	if len(cuts) == 0 {
		return -1
	}
	return cuts[g.v.Intn(len(cuts))]
}

var fillers = []string{
	"Buenos días, necesito ayuda con un cliente.", "Por favor revisa esto:", "Hola, ¿me puedes redactar una carta?",
	"Resume el caso en tres líneas.", "Gracias de antemano", "The customer called again about the transfer.",
	"Adjunto los datos que me pasaron por teléfono", "Comprueba si todo está en orden",
}

// textAround puts v inside a sentence.
func (g *gen) textAround(v string) string {
	return g.pick(fillers...) + " " + g.pick("dato: ", "", "ref ", "(", "el cliente ") + v + g.pick("", ".", ")", " gracias", "\n")
}

// nestedJSON wraps a string in random objects and arrays, and hides it as a key sometimes.
func (g *gen) nestedJSON(s string, depth int) any {
	var v any = s
	for i := 0; i < depth; i++ {
		switch g.v.Intn(4) {
		case 0:
			v = []any{"x", v}
		case 1:
			v = map[string]any{"description": v, "type": "string"}
		case 2:
			v = map[string]any{g.pick("properties", "items", "enum", "examples", "default"): v}
		default:
			if str, ok := v.(string); ok {
				v = map[string]any{str: map[string]any{"type": "string"}}
			} else {
				v = map[string]any{"anyOf": []any{v}}
			}
		}
	}
	return v
}

// body builds one request. Placements fall in three groups: text fields (answered, redacted),
// identifier fields (blocked at the exit) and a recased key (refused).
func (g *gen) body() genBody {
	gb := genBody{want: 200, stream: g.v.Chance(50)}
	req := map[string]any{"model": "echo", "stream": gb.stream, "temperature": 0.2, "max_tokens": 32}
	msgs := []any{map[string]any{"role": "system", "content": "Eres el asistente de la sucursal."}}
	tools := []any{}
	nPlants := 1 + g.v.Intn(3)
	for p := 0; p < nPlants; p++ {
		kind, canon := g.value()
		w, form := g.written(kind, canon)
		pl := plant{kind: kind, canon: canon, form: form}
		switch where := g.v.Intn(22); where {
		case 0, 1, 2: // message content string
			msgs = append(msgs, map[string]any{"role": "user", "content": g.textAround(w)})
			pl.where = "content"
		case 3: // text parts
			msgs = append(msgs, map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "mira:"}, map[string]any{"type": "text", "text": g.textAround(w)}}})
			pl.where = "text part"
		case 4, 5: // split between two messages or two parts
			k := g.splitPoint(w)
			if k < 0 {
				k = len(w) / 2
			}
			if g.v.Chance(50) {
				msgs = append(msgs, map[string]any{"role": "user", "content": "el número es " + w[:k]},
					map[string]any{"role": "user", "content": w[k:] + " y nada más"})
				pl.where = "split between messages"
			} else {
				msgs = append(msgs, map[string]any{"role": "user", "content": []any{
					map[string]any{"type": "text", "text": "es " + w[:k]}, map[string]any{"type": "text", "text": w[k:]}}})
				pl.where = "split between parts"
			}
		case 6: // wrapped at a line break
			if k := g.splitPoint(w); k > 0 {
				w = w[:k] + g.pick("\n", "\r\n", " \n", "\n  ") + w[k:]
			}
			msgs = append(msgs, map[string]any{"role": "user", "content": g.textAround(w)})
			pl.where = "wrapped"
		case 7:
			msgs = append(msgs, map[string]any{"role": "user", "name": w, "content": "hola"})
			pl.where = "messages[].name"
		case 8:
			tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": "buscar",
				"description": g.textAround(w), "parameters": map[string]any{"type": "object"}}})
			pl.where = "tools[].function.description"
		case 9:
			tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": "consultar",
				"parameters": map[string]any{"type": "object", "properties": g.nestedJSON(w, 1+g.v.Intn(4))}}})
			pl.where = "tools[].function.parameters"
		case 10:
			md, _ := req["metadata"].(map[string]any)
			if md == nil {
				md = map[string]any{}
			}
			if g.v.Chance(50) {
				md[fmt.Sprintf("k%d", p)] = w
			} else {
				md[w] = "v"
			}
			req["metadata"] = md
			pl.where = "metadata"
		case 11:
			req["stop"] = []any{"FIN", w}
			pl.where = "stop"
		case 12:
			req[g.pick("user", "safety_identifier", "prompt_cache_key")] = w
			pl.where = "user-like field"
		case 13:
			req["prediction"] = map[string]any{"type": "content", "content": g.textAround(w)}
			pl.where = "prediction"
		case 14:
			req["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "salida",
				"description": g.pick("", "formato para ") + w, "schema": g.nestedJSON(w, 1+g.v.Intn(5)), "strict": true}}
			pl.where = "response_format"
		case 15:
			args, _ := json.Marshal(map[string]any{"valor": w, "otro": []any{1, w}})
			if g.v.Chance(30) {
				args = []byte(strings.ReplaceAll(string(args), "@", `\u0040`))
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": "call_1", "type": "function", "function": map[string]any{"name": "buscar", "arguments": string(args)}}}},
				map[string]any{"role": "tool", "tool_call_id": "call_1", "content": `{"resultado":"` + w + `"}`})
			pl.where = "tool call arguments and tool result"
		case 16:
			msgs = append(msgs, map[string]any{"role": "assistant", "content": "ok", "function_call": map[string]any{"name": "f",
				"arguments": `{"v":"` + w + `"}`}}, map[string]any{"role": "function", "name": "f", "content": w})
			pl.where = "legacy function_call"
		case 17:
			req[egressPassthrough] = g.nestedJSON(w, g.v.Intn(4))
			pl.where = egressPassthrough
		case 18:
			msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "refusal": g.textAround(w)})
			pl.where = "refusal"
		case 19:
			u := "https://crm.example/cliente?q=" + url.QueryEscape(w)
			msgs = append(msgs, map[string]any{"role": "user", "content": []any{map[string]any{"type": "image_url", "image_url": map[string]any{"url": u}}}})
			pl.where = "image_url.url"
		case 20: // an identifier: never redacted, so the exit must block it
			if !identifierSafe(w) {
				w = canon
			}
			if g.v.Chance(50) {
				req["model"] = w
				pl.where = "model"
			} else {
				tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": "f_" + strings.ReplaceAll(w, "@", "_")}})
				pl.where = "tool name"
				if kind == "EMAIL" { // not an e-mail once '@' is gone
					req["model"] = w
					pl.where = "model"
				}
			}
			if gb.want == 200 {
				gb.want, gb.code = 422, "egress_blocked"
			}
		default: // 21: a recased key somewhere
			msgs = append(msgs, map[string]any{"role": "user", "content": g.textAround(w)})
			pl.where = "content (with a recased key)"
			gb.want, gb.code = 400, "invalid_field_casing"
		}
		gb.plants = append(gb.plants, pl)
	}
	msgs = append(msgs, map[string]any{"role": "user", "content": "¿Qué hago?"})
	req["messages"] = msgs
	if len(tools) > 0 {
		req["tools"] = tools
	}
	if gb.want == 400 {
		g.recase(req)
	}
	gb.body, _ = json.Marshal(req)
	return gb
}

// identifierSafe: the value is written in the identifier charset (so it is accepted and must
// then be blocked, not refused as a malformed name).
func identifierSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._:/@+=-", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// recase rewrites one known key of the top level or of a message in another casing.
func (g *gen) recase(req map[string]any) {
	msgs := req["messages"].([]any)
	target := req
	if g.v.Chance(60) {
		target = msgs[g.v.Intn(len(msgs))].(map[string]any)
	}
	keys := make([]string, 0, len(target))
	for k := range target {
		keys = append(keys, k)
	}
	slicesSort(keys)
	k := keys[g.v.Intn(len(keys))]
	nk := g.pick(strings.ToUpper(k[:1])+k[1:], strings.ToUpper(k))
	if nk == k {
		nk = strings.ToUpper(k)
	}
	target[nk] = target[k]
	if g.v.Chance(50) {
		delete(target, k) // PascalCase only; otherwise both spellings, the original bypass
	}
}

func slicesSort(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// --- the checker ---

// egressStrings returns every key and string value of a JSON document, decoded, in order.
func egressStrings(doc []byte) []string {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return []string{string(doc)}
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case json.Number:
			out = append(out, string(x))
		case float64:
			out = append(out, fmt.Sprintf("%.0f", x))
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slicesSort(keys)
			for _, k := range keys {
				out = append(out, k)
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}

// folded is text as the checker compares it: URL- and HTML-decoded, NFKC, format characters
// removed, digits of any script made ASCII, look-alike Cyrillic made Latin, lower case.
func folded(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		s = u
	}
	s = html.UnescapeString(s)
	s = norm.NFKC.String(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsDigit(r) && r > '9':
			for _, rg := range unicode.Nd.R16 {
				if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
					r = '0' + (r-rune(rg.Lo))%10
				}
			}
		}
		switch r {
		case 'Е', 'е':
			r = 'e'
		case 'А', 'а':
			r = 'a'
		case 'о':
			r = 'o'
		case 'с':
			r = 'c'
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// separatorFree keeps letters, digits and '@'.
func separatorFree(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' {
			return r
		}
		return -1
	}, s)
}

func digitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// leakedPlants returns the plants whose value can be read in the captured egress: in any one
// string, or across consecutive strings (a split value), in its separator-free or digits-only
// form.
func leakedPlants(captured []byte, plants []plant) []plant {
	strs := egressStrings(captured)
	var all strings.Builder
	per := make([]string, len(strs))
	for i, s := range strs {
		per[i] = separatorFree(folded(s))
		all.WriteString(per[i])
	}
	joined := all.String()
	digits := digitsOnly(joined)
	var out []plant
	for _, p := range plants {
		canon := separatorFree(folded(p.canon))
		leak := strings.Contains(joined, canon)
		if d := digitsOnly(canon); len(d) >= 7 && strings.Contains(digits, d) {
			leak = true
		}
		if leak {
			out = append(out, p)
		}
	}
	return out
}
