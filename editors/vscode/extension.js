// Starts `rulesc lsp` for .rules files. The grammar and the language settings are in package.json.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulesc").get("command") || ["rulesc", "lsp"];
  client = new LanguageClient("rulesc", "rulesc", { command, args },
    { documentSelector: [{ scheme: "file", language: "rules" }, { scheme: "untitled", language: "rules" }] });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
