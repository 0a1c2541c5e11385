"""Take shared/eval/ into the corpus: the same cases, each with a `provider` slug.

The shared files name no provider; their ids start with one (`openai-…`, `k8s-…`). This maps
that first word to the corpus's slug, so leave-one-provider-out scoring can turn off the rules
tagged for it. Run from the repository root: python3 eval/shared/import.py ../shared/eval
"""
import json
import sys
from pathlib import Path

# id prefix -> provider slug, where the prefix is not the slug itself.
SLUGS = {
    "cf": "cloudflare", "es": "elasticsearch", "k8s": "kubernetes", "hf": "huggingface",
    "gh": "github-mcp-server", "ghmcp": "github-mcp-server", "pw": "playwright-mcp",
    "fs": "mcp-server-filesystem", "fetch": "mcp-server-fetch", "git": "mcp-server-git",
    "memory": "mcp-server-memory", "time": "mcp-server-time", "everything": "mcp-server-everything",
    "seqthink": "mcp-server-sequential-thinking", "postgres": "postgres", "gmaps": "mcp-server-google-maps",
    "puppeteer": "mcp-server-puppeteer", "tssdk": "mcp-typescript-sdk", "gosdk": "mcp-go-sdk",
    "mcpgo": "mcp-go", "pyfastmcp": "fastmcp", "py": "python", "js": "node", "s3": "aws-s3",
    "cosmos": "azure-cosmos", "entra": "azure-entra", "mongo": "mongodb", "gemini": "google-gemini",
    "appengine": "google-appengine", "pg": "node-pg", "undici": "node-undici", "axios": "node-axios",
    "ioredis": "node-ioredis", "mysql2": "node-mysql2", "prisma": "node-prisma", "zod": "node-zod",
    "dockerode": "node-dockerode", "boom": "node-boom", "fetch-api": "node-fetch",
    "httpx": "python-httpx", "requests": "python-requests", "pydantic": "python-pydantic",
    "pymysql": "python-pymysql", "sqlalchemy": "python-sqlalchemy", "ssl": "python-ssl",
    "dotnet": "dotnet", "java": "java", "go": "go", "grpc": "grpc", "jsonrpc": "jsonrpc",
    "problem": "rfc9457", "aws": "aws",
}
# Generic ids (a bare status or errno) are their own kind, no provider's.
GENERIC = {"405", "410", "413", "500", "503", "abort", "aggregate", "eacces", "econnrefused",
           "ehostunreach", "enoent", "enotfound", "gateway", "html", "http", "plain", "haproxy"}


def slug(case_id: str, results: bool) -> str:
    head = case_id.split("-")[0]
    if head in GENERIC:
        return "generic-" + head
    if results and head == "fetch":
        return "mcp-server-fetch"
    if not results and head == "fetch":
        return "node-fetch"
    if results and head == "postgres":
        return "mcp-server-postgres"
    return SLUGS.get(head, head)


def main(src: str) -> None:
    out = Path(__file__).parent
    for name, target, results in (("raw-errors", "classify", False), ("error-results", "parse", True)):
        lines = []
        for line in Path(src, name + ".jsonl").read_text().splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            case = {"id": case["id"], "provider": slug(case["id"], results), **{k: v for k, v in case.items() if k != "id"}}
            lines.append(json.dumps(case, ensure_ascii=False))
        (out / f"{target}.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/eval")
