package mcperrors_test

import (
	"encoding/json"
	"fmt"
	"syscall"

	mcperrors "github.com/mcp-errors/mcp-errors/go"
)

func ExampleToolResult() {
	err := fmt.Errorf("fetch failed: %w", syscall.ECONNREFUSED)
	result := mcperrors.ToolResult(err, mcperrors.RenderOptions{
		ToolName: "fetch_page",
		Now:      "2025-10-27T14:32:15Z",
	})
	fmt.Println(result.IsError)
	fmt.Println(result.Text())
	// Output:
	// true
	// Error: The tool could not reach a service it needs.
	// Code: NETWORK_ERROR
	// Tool: fetch_page
	// Retryable: yes
}

func ExampleClassify() {
	n, err := mcperrors.Classify(json.RawMessage(`{"status":429,"headers":{"retry-after":"30"}}`), mcperrors.ClassifyOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(n.Code, n.Retryable, n.RetryAfter())
	// Output: RATE_LIMITED true 30s
}

func ExampleParse() {
	n, _ := mcperrors.Parse([]byte(`{"content":[{"type":"text","text":"search code: GitHub API rate limit exceeded. Retry after 30m0s."}],"isError":true}`))
	fmt.Println(n.Code, n.Retryable, n.RetryAfter())
	// Output: RATE_LIMITED true 30m0s
}

func ExampleToolError() {
	err := &mcperrors.ToolError{Message: "No city named Atlantis", Code: mcperrors.CodeNotFound,
		Suggestions: []string{"Check the spelling"}}
	result := mcperrors.ToolResult(err, mcperrors.RenderOptions{ToolName: "forecast", Profile: mcperrors.ProfileToolErrorV1, Format: mcperrors.FormatJSON})
	fmt.Println(result.StructuredContent["code"], result.StructuredContent["message"])
	// Output: NOT_FOUND No city named Atlantis
}
