import type { TroupeClient } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { createGateway } from "../create-gateway.js";
import { noFleet } from "../testing/no-fleet.js";

describe("chat routes in the OpenAPI document", () => {
  it("lists POST /api/chat with its request schema and the resume route", async () => {
    const gateway = createGateway({
      client: {} as TroupeClient,
      fleet: noFleet,
      console: false,
      log: () => undefined,
    });
    const response = await gateway.app.request("/v1/openapi.json");
    const document = (await response.json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>
      >;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.paths["/api/chat"] ?? {})).toEqual(["post"]);
    expect(document.paths["/api/chat/{id}/stream"]?.["get"]?.responses).toHaveProperty("204");
    expect(document.components.schemas).toHaveProperty("ChatRequest");
    await gateway.close();
  });
});
