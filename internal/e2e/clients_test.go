package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

const clientDNI, clientEmail = "12345678Z", "ana.garcia@example.com"

// boundaryStack is an agent in front of a capturing target, for the client tests.
func boundaryStack(t *testing.T) (string, *captureTarget) {
	t.Helper()
	target := &captureTarget{}
	srv := httptest.NewServer(target)
	t.Cleanup(srv.Close)
	pkiDir := newPKI(t)
	gw := startGateway(t, pkiDir, srv.URL+"/v1")
	url, a := startAgent(t, pkiDir, gw)
	waitLink(t, a)
	return url, target
}

// checkForwarded: every captured body holds the fields named, and no planted value in any form.
func checkForwarded(t *testing.T, target *captureTarget, fields ...string) {
	t.Helper()
	target.mu.Lock()
	bodies := append([][]byte(nil), target.captured...)
	target.mu.Unlock()
	if len(bodies) == 0 {
		t.Fatal("nothing reached the DC")
	}
	plants := []plant{{kind: "DNI", canon: clientDNI}, {kind: "EMAIL", canon: clientEmail}}
	seen := map[string]bool{}
	for _, b := range bodies {
		if l := leakedPlants(b, plants); len(l) > 0 {
			t.Errorf("raw value(s) reached the DC: %s", describePlants(l))
		}
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		for k := range m {
			seen[k] = true
		}
	}
	for _, f := range fields {
		if !seen[f] {
			t.Errorf("field %q did not reach the DC (the boundary must forward, redacted, what clients send by default)", f)
		}
	}
}

// TestOfficialGoClientThroughTheBoundary: the official OpenAI Go SDK, with tools, a structured
// output schema, metadata, user, stop and streaming with usage, works unchanged through the
// egress boundary; the fields reach the DC redacted.
func TestOfficialGoClientThroughTheBoundary(t *testing.T) {
	url, target := boundaryStack(t)
	client := sdk(url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	params := openai.ChatCompletionNewParams{
		Model: "echo",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Eres el asistente de la sucursal."),
			openai.UserMessage("El cliente " + clientEmail + " con DNI " + clientDNI + " pregunta por su cuenta."),
		},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        "buscar_cliente",
			Description: openai.String("Busca un cliente por DNI (ejemplo: " + clientDNI + ")"),
			Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{
				"dni": map[string]any{"type": "string", "examples": []string{clientDNI}}}, "required": []string{"dni"}},
		})},
		ToolChoice:          openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String("auto")},
		Temperature:         openai.Float(0.2),
		MaxCompletionTokens: openai.Int(64),
		User:                openai.String(clientEmail),
		Metadata:            shared.Metadata{"canal": "ventanilla"},
	}
	c, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("the Go SDK with tools failed: %v", err)
	}
	if c.Choices[0].Message.Content != "entendido" {
		t.Fatalf("answer %q", c.Choices[0].Message.Content)
	}
	sp := openai.ChatCompletionNewParams{
		Model:    "echo",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Resume la ficha de " + clientDNI)},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "ficha", Strict: openai.Bool(true),
				Schema: map[string]any{"type": "object", "properties": map[string]any{"resumen": map[string]any{"type": "string", "description": "sin " + clientEmail}}}}}},
		Stop:          openai.ChatCompletionNewParamsStopUnion{OfStringArray: []string{"FIN"}},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	stream := client.Chat.Completions.NewStreaming(ctx, sp)
	var text strings.Builder
	for stream.Next() {
		if ch := stream.Current(); len(ch.Choices) > 0 {
			text.WriteString(ch.Choices[0].Delta.Content)
		}
	}
	if err := stream.Err(); err != nil || text.String() != "entendido" {
		t.Fatalf("streamed structured output: %q, %v", text.String(), err)
	}
	checkForwarded(t, target, "tools", "tool_choice", "metadata", "user", "response_format", "stop", "stream_options", "max_completion_tokens")
}

// TestOfficialNodeClientThroughTheBoundary: the official OpenAI Node.js client (a second
// language; pinned in testdata/openai-node, installed by scripts/fetch-openai-node.sh) works
// unchanged with tools, structured outputs and streaming; a field the boundary does not know
// gets a clear 400 it can read.
func TestOfficialNodeClientThroughTheBoundary(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := filepath.Join(root, ".cache", "openai-node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openai", "package.json")); err != nil {
		t.Fatalf("the OpenAI Node.js client is not installed in %s: run `make deps` (scripts/fetch-openai-node.sh)", dir)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not installed: `make deps` needs Debian's nodejs and npm")
	}
	script, err := os.ReadFile(filepath.Join(root, "testdata", "openai-node", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// The script must sit beside node_modules for Node's module resolution.
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	url, target := boundaryStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL="+url+"/v1", "OPENAI_API_KEY=branch-app", "PII_DNI="+clientDNI, "PII_EMAIL="+clientEmail)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s\n%s", err, out, stderr.String())
	}
	results := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("node client printed %q", sc.Text())
		}
		results[r["call"].(string)] = r
	}
	if r := results["tools"]; r == nil || r["content"] != "entendido" {
		t.Errorf("tools call: %v", r)
	}
	if r := results["structured-stream"]; r == nil || r["content"] != "entendido" {
		t.Errorf("streamed structured output: %v", r)
	}
	if r := results["unknown-field"]; r == nil || r["status"] != float64(http.StatusBadRequest) || r["code"] != "unknown_field" {
		t.Errorf("unknown field: %v (want a 400 unknown_field the SDK can read)", r)
	}
	checkForwarded(t, target, "tools", "tool_choice", "metadata", "user", "response_format", "stop", "stream_options", "max_completion_tokens")
}

// TestPascalCaseClientGetsA400: a client that names fields in PascalCase (a .NET client's
// default serializer) gets a clear 400 naming the field, and nothing reaches the DC.
func TestPascalCaseClientGetsA400(t *testing.T) {
	url, target := boundaryStack(t)
	body := `{"Model":"echo","Messages":[{"Role":"user","Content":"El DNI es ` + clientDNI + `"}],"Temperature":0.2}`
	resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error struct {
			Message, Code, Param string
		} `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != http.StatusBadRequest || e.Error.Code != "invalid_field_casing" || !strings.Contains(e.Error.Message, `"model"`) {
		t.Fatalf("got %d %+v", resp.StatusCode, e.Error)
	}
	if strings.Contains(e.Error.Message, clientDNI) {
		t.Fatal("the error quotes the prompt")
	}
	if target.count() != 0 {
		t.Fatal("a refused request reached the DC")
	}
}
