package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/openaicompat"
)

// newAskCmd is the branch-IT smoke test: send one prompt to a running agent and stream the answer
// to the terminal, with the time to first token.
func newAskCmd() *cobra.Command {
	var url, model, apiKey, caFile string
	var maxTokens int
	var noStream bool
	cmd := &cobra.Command{
		Use:   "ask [flags] PROMPT",
		Short: "Send one prompt to a running edge-agent and stream the answer (a smoke test for branch IT)",
		Example: `  edge-agent ask --model llama3.2 "hola"
  EDGE_AGENT_API_KEY=sk-suc-… edge-agent ask --url https://nuc-0042.branch.lan:8443 --ca-file /etc/sucursal/branch-ca.crt --model llama3.2 "hola"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := askClient(caFile)
			if err != nil {
				return err
			}
			return ask(cmd.OutOrStdout(), cmd.ErrOrStderr(), client, url, apiKey, model, args[0], maxTokens, !noStream)
		},
	}
	f := cmd.Flags()
	f.StringVar(&url, "url", "http://127.0.0.1:8080", "the edge-agent's base URL")
	f.StringVar(&model, "model", "", "model name as the datacenter target knows it (required)")
	f.IntVar(&maxTokens, "max-tokens", 256, "upper bound of the answer's length in tokens")
	f.BoolVar(&noStream, "no-stream", false, "ask for a whole answer instead of a stream")
	f.StringVar(&apiKey, "api-key", "", "API key from 'edge-agent keys add' (needed when the agent has a key file)")
	f.StringVar(&caFile, "ca-file", "", "PEM file of the CA that signed the agent's tls_cert (https URLs; default: the system's roots)")
	_ = cmd.MarkFlagRequired("model")
	// What one smoke test asks is typed each time; where and with which key stays in the environment.
	for _, name := range []string{"model", "max-tokens", "no-stream"} {
		envflag.NoEnv(f, name)
	}
	return cmd
}

// askClient trusts caFile's certificates besides the system's, for an agent serving HTTPS with a
// branch CA's certificate.
func askClient(caFile string) (*http.Client, error) {
	if caFile == "" {
		return http.DefaultClient, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate in it", caFile)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}, nil
}

func ask(stdout, stderr io.Writer, client *http.Client, url, apiKey, model, prompt string, maxTokens int, stream bool) error {
	n := int64(maxTokens)
	req := chat.Request{Model: model, Stream: stream, Messages: []chat.Message{{Role: "user", Content: chat.TextContent(prompt)}},
		MaxTokens: &n}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	start := time.Now()
	hreq, err := http.NewRequest(http.MethodPost, strings.TrimRight(url, "/")+"/v1/chat/completions", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("--url %q: %w", url, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return fmt.Errorf("cannot reach the edge-agent at %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := chat.ParseError(resp.StatusCode, b)
		return fmt.Errorf("%d %s: %s", resp.StatusCode, e.Code, e.Message)
	}
	if !stream {
		var c chat.Completion
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
			return fmt.Errorf("unreadable answer: %w", err)
		}
		for _, ch := range c.Choices {
			if ch.Message.Content.Text != nil {
				fmt.Fprintln(stdout, *ch.Message.Content.Text)
			}
		}
		fmt.Fprintf(stderr, "(answered in %s)\n", time.Since(start).Round(time.Millisecond))
		return nil
	}
	sse := openaicompat.NewSSEReader(resp.Body, 8<<20)
	var ttft time.Duration
	chunks := 0
	for {
		data, err := sse.Next()
		if errors.Is(err, io.EOF) {
			return errors.New("the stream ended without [DONE]")
		}
		if err != nil {
			return err
		}
		if string(data) == "[DONE]" {
			break
		}
		if bytes.HasPrefix(data, []byte(`{"error"`)) {
			e := chat.ParseError(http.StatusBadGateway, data)
			return fmt.Errorf("the stream failed: %s: %s", e.Code, e.Message)
		}
		var c chat.Chunk
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("unreadable chunk: %w", err)
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				if ttft == 0 {
					ttft = time.Since(start)
				}
				fmt.Fprint(stdout, *ch.Delta.Content)
				chunks++
			}
		}
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stderr, "(%d chunks, first after %s, done in %s)\n", chunks, ttft.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}
