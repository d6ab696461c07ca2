/**
 * The tests drive the same Slack stand-in the playground ships (one model of Slack, not two); this
 * module keeps the names the test suite has always imported.
 */
export {
  BOT_USER,
  newTriggerId,
  type SlackCall,
  SlackStandIn as FakeSlack,
  type StandInConversation as FakeConversation,
  type StandInMessage as FakeMessage,
  type StandInUser as FakeUser,
  WORKSPACE,
} from '../../src/playground/slack-standin.js';
