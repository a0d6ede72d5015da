package vocab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A model server that takes Hugging Face checkpoints (vLLM) has no endpoint that lists its
// vocabulary, so the datacenter reads the same tokenizer files the server loads. The rules below
// follow llama.cpp's convert_hf_to_gguf.py, so that the fingerprint equals the one of the GGUF
// converted from the same checkpoint (what an edge's Ollama reports): token texts by id from
// tokenizer.json's model vocabulary and added tokens (user-defined ones with "▁" as spaces), the
// table sized by config.json's vocab_size (ids the tokenizer does not name filled with "[PAD<id>]",
// ids past it dropped), BOS/EOS named in tokenizer_config.json (or, failing that, config.json's
// ids).

// hfFileLimit bounds what is read from one tokenizer file (large vocabularies are ~10-20 MB).
const hfFileLimit = 64 << 20

type hfTokenizer struct {
	Model struct {
		Type         string          `json:"type"`
		Vocab        json.RawMessage `json:"vocab"`
		ByteFallback bool            `json:"byte_fallback"`
		UnkToken     *string         `json:"unk_token"`
	} `json:"model"`
	AddedTokens []struct {
		ID      int    `json:"id"`
		Content string `json:"content"`
		Special bool   `json:"special"`
	} `json:"added_tokens"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Decoder      json.RawMessage `json:"decoder"`
	Normalizer   json.RawMessage `json:"normalizer"`
}

// FromHFTokenizerJSON reads a Hugging Face tokenizer: path is tokenizer.json or the folder that
// holds it; tokenizer_config.json and config.json next to it are read when present. Byte-level
// BPE (GPT-2, Llama 3, Qwen) is vocabulary type "gpt2", SentencePiece-style BPE with byte
// fallback (Llama 2, Mistral) is "llama"; other tokenizer models are refused.
func FromHFTokenizerJSON(path string) (*Vocab, error) {
	dir, file := hfPaths(path)
	var tj hfTokenizer
	if err := readHFJSON(file, &tj, true); err != nil {
		return nil, err
	}
	typ, err := hfVocabType(&tj)
	if err != nil {
		return nil, fmt.Errorf("vocab: %s: %w", file, err)
	}
	byID := map[int]string{}
	if tj.Model.Type == "BPE" {
		var m map[string]int
		if err := json.Unmarshal(tj.Model.Vocab, &m); err != nil {
			return nil, fmt.Errorf("vocab: %s: model.vocab is not a token→id map: %w", file, err)
		}
		for tok, id := range m {
			if id < 0 {
				return nil, fmt.Errorf("vocab: %s: negative token id %d", file, id)
			}
			byID[id] = tok
		}
	}
	special, added := map[int]bool{}, map[int]bool{}
	for _, a := range tj.AddedTokens {
		if a.ID < 0 {
			return nil, fmt.Errorf("vocab: %s: negative added token id %d", file, a.ID)
		}
		byID[a.ID] = a.Content
		special[a.ID], added[a.ID] = a.Special, true
	}
	var cfg struct {
		VocabSize  int `json:"vocab_size"`
		TextConfig struct {
			VocabSize int `json:"vocab_size"`
		} `json:"text_config"`
		BOS json.RawMessage `json:"bos_token_id"`
		EOS json.RawMessage `json:"eos_token_id"`
	}
	if err := readHFJSON(filepath.Join(dir, "config.json"), &cfg, false); err != nil {
		return nil, err
	}
	// The model's vocab_size is the table's size (the converter drops ids past it: added tokens the
	// embedding has no row for); without config.json, the highest id the tokenizer names.
	size := max(cfg.VocabSize, cfg.TextConfig.VocabSize)
	if size == 0 {
		for id := range byID {
			size = max(size, id+1)
		}
	}
	if size == 0 || size > 1<<24 {
		return nil, fmt.Errorf("vocab: %s: %d tokens", file, size)
	}
	tokens := make([]string, size)
	types := make([]int32, size)
	index := make(map[string]int, len(byID))
	for id := range size {
		tok, ok := byID[id]
		switch {
		case !ok:
			tok, types[id] = fmt.Sprintf("[PAD%d]", id), typeUnused
		case special[id]:
			types[id] = typeControl
		case tj.Model.UnkToken != nil && tok == *tj.Model.UnkToken:
			types[id] = typeUnknown
		case added[id]:
			// The converter stores user-defined tokens with "▁" already turned into spaces.
			tok, types[id] = strings.ReplaceAll(tok, "▁", " "), typeUserDefined
		case typ == "llama" && isHFByteToken(tok):
			types[id] = typeByte
		default:
			types[id] = typeNormal
		}
		tokens[id] = tok
		if _, dup := index[tok]; !dup && ok {
			index[tok] = id
		}
	}
	var tc struct {
		BOS json.RawMessage `json:"bos_token"`
		EOS json.RawMessage `json:"eos_token"`
	}
	if err := readHFJSON(filepath.Join(dir, "tokenizer_config.json"), &tc, false); err != nil {
		return nil, err
	}
	bos := specialID(tc.BOS, cfg.BOS, index)
	eos := specialID(tc.EOS, cfg.EOS, index)
	return New(typ, tokens, types, bos, eos)
}

// HFStopIDs returns the ids that end an answer for the model whose tokenizer path names (as for
// FromHFTokenizerJSON): v's EOS and every eos_token_id of generation_config.json, which vLLM
// also stops on (Llama 3's <|eot_id|>, for instance).
func HFStopIDs(path string, v *Vocab) ([]int32, error) {
	dir, _ := hfPaths(path)
	var gc struct {
		EOS json.RawMessage `json:"eos_token_id"`
	}
	if err := readHFJSON(filepath.Join(dir, "generation_config.json"), &gc, false); err != nil {
		return nil, err
	}
	var ids []int32
	add := func(id int) {
		if id >= 0 && id < v.Size() {
			for _, have := range ids {
				if have == int32(id) {
					return
				}
			}
			ids = append(ids, int32(id))
		}
	}
	add(v.Fingerprint().EOS)
	for _, id := range rawIDs(gc.EOS) {
		add(id)
	}
	return ids, nil
}

// Token returns the text of token id as the vocabulary stores it (GGUF's tokenizer.ggml.tokens
// form: "▁a" for SentencePiece, "Ġa" for byte-level BPE), false when id is out of range.
func (v *Vocab) Token(id int32) (string, bool) {
	if id < 0 || int(id) >= len(v.tokens) {
		return "", false
	}
	return v.tokens[id], true
}

func hfPaths(path string) (dir, file string) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return path, filepath.Join(path, "tokenizer.json")
	}
	return filepath.Dir(path), path
}

func readHFJSON(file string, into any, required bool) error {
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) && !required {
		return nil
	}
	if err != nil {
		return fmt.Errorf("vocab: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(&limitedReader{f: f, n: hfFileLimit})
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("vocab: %s: %w", file, err)
	}
	return nil
}

type limitedReader struct {
	f *os.File
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("file too large")
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= int64(n)
	return n, err
}

// hfVocabType tells byte-level BPE from SentencePiece-style BPE the way the files show it: a
// ByteLevel pre-tokenizer or decoder, or byte fallback / the "▁" metaspace.
func hfVocabType(tj *hfTokenizer) (string, error) {
	if tj.Model.Type != "BPE" {
		return "", fmt.Errorf("tokenizer model %q is not supported (BPE only)", tj.Model.Type)
	}
	has := func(raw json.RawMessage, s string) bool { return strings.Contains(string(raw), s) }
	switch {
	case has(tj.PreTokenizer, `"ByteLevel"`) || has(tj.Decoder, `"ByteLevel"`):
		return "gpt2", nil
	case tj.Model.ByteFallback || has(tj.PreTokenizer, `"Metaspace"`) || has(tj.Decoder, `"Metaspace"`) ||
		has(tj.Decoder, "▁") || has(tj.Normalizer, "▁"):
		return "llama", nil
	}
	return "", errors.New("neither byte-level nor SentencePiece-style BPE")
}

// isHFByteToken reports SentencePiece's byte-fallback pieces, "<0x00>" to "<0xFF>".
func isHFByteToken(tok string) bool {
	const hex = "0123456789ABCDEF"
	return len(tok) == 6 && strings.HasPrefix(tok, "<0x") && tok[5] == '>' &&
		strings.IndexByte(hex, tok[3]) >= 0 && strings.IndexByte(hex, tok[4]) >= 0
}

// specialID resolves tokenizer_config.json's "eos_token" (a string or {"content": …}) to an id,
// falling back to config.json's id (an int, or the first of a list); -1 when neither names one.
func specialID(named, cfgID json.RawMessage, index map[string]int) int {
	var s string
	if json.Unmarshal(named, &s) != nil {
		var obj struct{ Content string }
		if json.Unmarshal(named, &obj) == nil {
			s = obj.Content
		}
	}
	if id, ok := index[s]; ok && s != "" {
		return id
	}
	if ids := rawIDs(cfgID); len(ids) > 0 {
		return ids[0]
	}
	return -1
}

func rawIDs(raw json.RawMessage) []int {
	var one int
	if json.Unmarshal(raw, &one) == nil && len(raw) > 0 && string(raw) != "null" {
		return []int{one}
	}
	var many []int
	_ = json.Unmarshal(raw, &many)
	return many
}
