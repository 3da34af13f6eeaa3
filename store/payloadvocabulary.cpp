#include "payloadvocabulary.h"

namespace {

// zstd finds a match anywhere in it and codes a near one in fewer bits: the commonest rows come last. The pieces
// are joined without a separator; the line breaks of CraftBot's multi-line action records are written as escapes, so
// that no editor's or checkout's line endings can change a byte.
constexpr char Vocabulary[] =
    // CraftBot EVENT.md records: "[YYYY/MM/DD HH:MM:SS] [kind]: message", the kinds its agent logs, and the
    // fixed sentences of its action, task and limit records.
    R"([2026/01/01 00:00:00] [screen_description]: [loop_detection_warning]: [waiting_for_user]: Agent is waiting for )"
    "[internal]: [system]: [todos]: [error]: [REACT] Traceback (most recent call last):\n  File \""
    R"([warning]: Action limit reached. [warning]: Token limit reached. [action_error]: )"
    R"([GUI action end]: Action  completed with output: [GUI action start]: Running action )"
    R"([task_start]: Created task: ' [task_end]: Task ended with status 'completed'. Task ended with status 'error'. )"
    R"(Task ended with status 'cancelled'. {"error": "Action cancelled", "error_code": "cancelled"})"
    R"([user message from platform: CraftBot Interface]: [agent message to platform: CraftBot Interface]: )"
    R"([user message]: [agent message]: [agent reasoning]: )"
    "[action_end]: Action send_message completed with output: {\n  \"status\": \"ok\",\n  \"error\": null,\n"
    "  \"wait_for_user_reply\": false\n}.\n"
    "[action_start]: Running action send_message with input: {\n  \"message\": \",\n  \"_session_id\": \"\n}.\n"
    // RoomKit rows (pydantic's model_dump_json of a RoomEvent): the content types but text and tool calls first,
    // then the two that most rows are, whole but for their values.
    R"({"type":"rich","body":"","format":"markdown","plain_text":"","buttons":[],"cards":[],"quick_replies":[]})"
    R"({"type":"media","url":"https://","mime_type":"image/png","filename":"","size_bytes":,"caption":null})"
    R"({"type":"location","latitude":,"longitude":,"label":null,"address":null})"
    R"({"type":"audio","url":"","mime_type":"audio/ogg","duration_seconds":,"transcript":null})"
    R"({"type":"video","url":"","mime_type":"video/mp4","duration_seconds":,"thumbnail_url":null})"
    R"({"type":"composite","parts":[{"type":"system","body":"","code":"","data":{}})"
    R"({"type":"template","template_id":"","language":"en","parameters":{},"body":"")"
    R"({"type":"edit","target_event_id":"","new_content":{},"edit_source":"")"
    R"({"type":"delete","target_event_id":"","delete_type":"","reason":null})"
    R"("metadata":{"edited":true,"deleted":true,"cancelled":true},"delivery_results":{"":{"channel_id":"","status":"failed",)"
    R"("provider_message_id":null,"error":{"code":"","message":"","retryable":false},"retry_after":null,"provider_result":null}})"
    R"("status":"blocked","blocked_by":"moderation","status":"pending","status":"failed","direction":"outbound",)"
    R"("channel_type":"websocket","channel_type":"sms","channel_type":"email","channel_type":"whatsapp",)"
    R"("type":"message","type":"system","type":"edit","type":"delete","type":"typing","type":"reaction",)"
    R"({"type":"text","body":"Error executing tool ","language":null} denied by pre-execution hook.)"
    R"({"id":"","room_id":"","type":"message","source":{"channel_id":"","channel_type":"websocket","direction":"inbound",)"
    R"("participant_id":"","external_id":null,"provider":null,"raw_payload":{},"provider_message_id":null},)"
    R"("content":{"type":"text","body":"","language":null},"status":"delivered","blocked_by":null,"visibility":"all",)"
    R"("addressed_to":null,"response_visibility":null,"index":,"chain_depth":0,"parent_event_id":null,)"
    R"("correlation_id":null,"idempotency_key":null,"created_at":"2026-01-01T00:00:00.000000Z","metadata":{},)"
    R"("channel_data":{"provider":null,"external_id":null,"thread_id":null,"extra":{}},"delivery_results":{}})"
    R"({"id":"","room_id":"","type":"tool_call_start","source":{"channel_id":"","channel_type":"ai","direction":"inbound",)"
    R"("participant_id":null,"external_id":null,"provider":"","raw_payload":{},"provider_message_id":null},)"
    R"("content":{"type":"tool_call","tool_name":"","tool_id":"toolu_","arguments":{},"result":null,"status":"pending",)"
    R"("duration_ms":null,"error":null,"structured_content":null},"status":"delivered","blocked_by":null,)"
    R"("visibility":"all","addressed_to":null,"response_visibility":null,"index":,"chain_depth":1,)"
    R"("parent_event_id":null,"correlation_id":"","idempotency_key":null,"created_at":"2026-01-01T00:00:00.000000Z",)"
    R"("metadata":{},"channel_data":{"provider":null,"external_id":null,"thread_id":null,"extra":{}},)"
    R"("delivery_results":{}}"type":"tool_call_end","result":"","status":"completed","duration_ms":)"
    // AG-UI events as kaboo-runtime writes them: the rarer types first, each with its fields in kaboo's order.
    R"({"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"","timestamp":,"encryptedValue":""})"
    R"({"type":"ACTIVITY_SNAPSHOT","content":{},"replace":true,"messageId":"","timestamp":,"activityType":""})"
    R"({"type":"ACTIVITY_DELTA","messageId":"","activityType":"","patch":[]})"
    R"({"type":"THINKING_START","title":""}{"type":"THINKING_END"}{"type":"THINKING_TEXT_MESSAGE_START"})"
    R"({"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":""}{"type":"THINKING_TEXT_MESSAGE_END"})"
    R"({"type":"RAW","event":{},"source":"","timestamp":})"
    R"({"type":"MESSAGES_SNAPSHOT","messages":[{"id":"","role":"user","content":""},{"id":"","role":"assistant",)"
    R"("content":"","toolCalls":[{"id":"","type":"function","function":{"name":"","arguments":""}}]},)"
    R"({"id":"","role":"tool","content":"","toolCallId":""}],"timestamp":})"
    R"({"type":"STATE_SNAPSHOT","snapshot":{},"timestamp":})"
    R"({"type":"STATE_DELTA","delta":[{"op":"replace","path":"/","value":}],"timestamp":})"
    R"({"code":"","type":"RUN_ERROR","message":"","timestamp":})"
    R"({"type":"STEP_STARTED","stepName":"","timestamp":}{"type":"STEP_FINISHED","stepName":"","timestamp":})"
    R"({"type":"REASONING_START","messageId":"","timestamp":}{"type":"REASONING_END","messageId":"","timestamp":})"
    R"({"role":"reasoning","type":"REASONING_MESSAGE_START","messageId":"","timestamp":})"
    R"({"type":"REASONING_MESSAGE_END","messageId":"","timestamp":})"
    R"({"type":"REASONING_MESSAGE_CHUNK","delta":"","messageId":"","timestamp":})"
    R"({"type":"REASONING_MESSAGE_CONTENT","delta":"","messageId":"","timestamp":})"
    R"({"type":"TOOL_CALL_CHUNK","delta":"","timestamp":,"toolCallId":"call_","toolCallName":"","parentMessageId":""})"
    R"({"type":"TEXT_MESSAGE_CHUNK","delta":"","messageId":"","timestamp":})"
    R"({"type":"RUN_FINISHED","runId":"run_","usage":[{"provider":"","model":"","inputTokens":,"outputTokens":,)"
    R"("totalTokens":}],"result":null,"outcome":{"type":"success"},"threadId":"","timestamp":})"
    R"({"type":"RUN_STARTED","runId":"run_","threadId":"","timestamp":})"
    R"({"name":"kaboo.message_meta","type":"CUSTOM","value":{"role":"user","createdAt":,"messageId":""},"timestamp":})"
    R"({"role":"assistant","type":"TEXT_MESSAGE_START","messageId":"msg_","timestamp":})"
    R"({"type":"TEXT_MESSAGE_END","messageId":"msg_","timestamp":})"
    R"({"role":"tool","type":"TOOL_CALL_RESULT","content":"","messageId":"","timestamp":,"toolCallId":"call_"})"
    R"({"type":"TOOL_CALL_START","timestamp":,"toolCallId":"call_","toolCallName":"","parentMessageId":"msg_"})"
    R"({"type":"TOOL_CALL_END","timestamp":,"toolCallId":"call_"})"
    R"({"type":"TOOL_CALL_ARGS","delta":"","timestamp":,"toolCallId":"call_"})"
    R"({"type":"TEXT_MESSAGE_CONTENT","delta":"","messageId":"msg_","timestamp":17)";

} // namespace

QByteArrayView payloadVocabulary()
{
    return QByteArrayView(Vocabulary, qsizetype(sizeof(Vocabulary) - 1));
}
