import { FrameworkServices, inject, injectable, LocalizedException, type HookPointList } from '#framework';
import { carriesCredentials, pluginHookName } from './hookNames.js';
import type { SubscribedWebhook, WebhookData, WebhookManagementInterface } from '../Api/WebhookManagementInterface.js';
import { hasEnvPlaceholder, listedHook } from './Hook.js';
import { HookRegistry } from './HookRegistry.js';
import { refuseContextPaths, settingException } from '../../OutOfProcessExtensibility/Api/filterSettings.js';
import { generateSecret } from '../../OutOfProcessExtensibility/Api/Signature.js';
import { hookSettingsProblem } from './hookSettings.js';
import { SubscriptionRepository } from './SubscriptionRepository.js';
import { UrlPolicy } from './UrlPolicy.js';

/** Adobe's REST routes for run-time webhooks; the secret is answered once, when generated here. */
@injectable()
export class WebhookManagement implements WebhookManagementInterface {
  constructor(
    @inject('Dispensary\\Webhooks\\Model\\SubscriptionRepository')
    private readonly subscriptions: SubscriptionRepository,
    @inject('Dispensary\\Webhooks\\Model\\HookRegistry') private readonly registry: HookRegistry,
    @inject('Dispensary\\Webhooks\\Model\\UrlPolicy') private readonly urls: UrlPolicy,
    @inject(FrameworkServices.HookPointList) private readonly points: HookPointList,
  ) {}

  async subscribe(webhook: Partial<WebhookData> & { secret?: string }): Promise<SubscribedWebhook> {
    const { secret: given, ...definition } = webhook as WebhookData & { secret?: string };
    await this.checkMethod(definition.webhook_method);
    // An {env:NAME} URL (Adobe's form) is checked when it is called, with the variable's value.
    if (!hasEnvPlaceholder(definition.url)) this.urls.check(definition.url);
    // Paths, operators, RE2 regexes, header names and values (the same check as webhooks.xml's).
    const problem = hookSettingsProblem(definition);
    if (problem) throw settingException('webhook', problem);
    refuseContextPaths('webhook', definition);
    const secret = given ?? generateSecret();
    await this.subscriptions.save(definition, secret);
    this.registry.invalidate();
    return given ? { ...definition, source: 'api' } : { ...definition, source: 'api', secret };
  }

  /**
   * A `plugin.*` name must be one `webhooks:list:all` prints (an `observer.*` may name any event:
   * events nobody observes are dispatched too). The login route and the webhook and event
   * subscription routes are refused: their arguments or answers are credentials (a password, a
   * token, signing secrets, hook headers), which never leave the service.
   */
  private async checkMethod(name: string): Promise<void> {
    if (!name.startsWith('plugin.')) return;
    if (carriesCredentials(name))
      throw new LocalizedException('The webhook "%name" would receive credentials and cannot be subscribed.', { name });
    const known = (await this.points.serviceCalls()).some(
      (call) => pluginHookName(call.serviceClass, call.method) === name,
    );
    if (!known) throw new LocalizedException('No webhook is named "%name": see webhooks:list:all.', { name });
  }

  async unsubscribe(
    webhook: Pick<WebhookData, 'webhook_method' | 'webhook_type' | 'batch_name' | 'hook_name'>,
  ): Promise<boolean> {
    const removed = await this.subscriptions.delete(webhook);
    this.registry.invalidate();
    return removed;
  }

  async getList(): Promise<WebhookData[]> {
    return (await this.registry.all()).map(listedHook);
  }
}
