// The official OpenAI Node.js client, used the way a branch app would, against the edge-agent:
// OPENAI_BASE_URL points at it. Every call uses the SDK's defaults plus tools, a structured
// output schema and streaming with usage. Prints one JSON line per call for internal/e2e.
import OpenAI from "openai";

const client = new OpenAI({ apiKey: process.env.OPENAI_API_KEY || "branch-key", maxRetries: 0 });
const dni = process.env.PII_DNI, email = process.env.PII_EMAIL;
const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");

const tools = [{
  type: "function",
  function: {
    name: "buscar_cliente",
    description: `Busca un cliente por DNI (ejemplo: ${dni})`,
    parameters: {
      type: "object",
      properties: { dni: { type: "string", description: "DNI o NIE", examples: [dni] }, email: { type: "string" } },
      required: ["dni"],
    },
    strict: false,
  },
}];

try {
  const r1 = await client.chat.completions.create({
    model: "echo",
    messages: [
      { role: "system", content: "Eres el asistente de la sucursal." },
      { role: "user", content: `El cliente ${email} con DNI ${dni} pregunta por su cuenta.`, name: "gestor" },
    ],
    tools,
    tool_choice: "auto",
    temperature: 0.2,
    max_completion_tokens: 64,
    user: email,
    metadata: { canal: "ventanilla" },
  });
  out({ call: "tools", content: r1.choices[0].message.content, finish: r1.choices[0].finish_reason });

  const stream = await client.chat.completions.create({
    model: "echo",
    messages: [{ role: "user", content: [{ type: "text", text: `Resume la ficha de ${dni}` }] }],
    response_format: {
      type: "json_schema",
      json_schema: { name: "ficha", strict: true, schema: { type: "object", properties: { resumen: { type: "string", description: `sin ${email}` } }, required: ["resumen"], additionalProperties: false } },
    },
    stop: ["FIN"],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  for await (const chunk of stream) {
    text += chunk.choices?.[0]?.delta?.content ?? "";
  }
  out({ call: "structured-stream", content: text });

  try {
    await client.chat.completions.create({ model: "echo", messages: [{ role: "user", content: "hola" }], top_k: 3 });
    out({ call: "unknown-field", status: 200 });
  } catch (e) {
    out({ call: "unknown-field", status: e.status, code: e.code });
  }
} catch (e) {
  out({ call: "error", status: e.status, code: e.code, message: String(e.message) });
  process.exit(1);
}
